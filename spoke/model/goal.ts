import type { PermissionRequest } from './act';
import type { Author } from './types';

// A goal as the model carries it: what one ask of a session is, and whether it needs its person.
// How goals are judged from turns is spoke/goals' business (judge.ts, sign-of-life.ts).

export type GoalStatus = 'WORKING' | 'BLOCKED' | 'COMPLETED';
export type BlockKind = 'PERMISSION' | 'QUESTION' | 'PLAN_APPROVAL' | 'ERROR';

export interface ChildGoal {
  /** unique within its goal */
  key: string;
  /** ASK: an older open ask of the same session, rolled up under the newest (applied when read) */
  kind: 'TODO' | 'TASK' | 'SUBAGENT' | 'ASK';
  title: string;
  status: GoalStatus;
}

export interface Goal {
  /** the uuid of the prompt that opened it: stable across restarts and re-reads */
  anchor: string;
  title: string;
  origin: Author['kind'];
  status: GoalStatus;
  /** BLOCKED when any part is, COMPLETED when it and every part are */
  rolledUpStatus: GoalStatus;
  /** with the request Claude Code holds open through Loom's hook, when it does (applied when read) */
  block: { kind: BlockKind; text: string; request?: PermissionRequest } | null;
  /** the last request asked through Loom's hook during this goal, once closed: who answered it (applied when read) */
  answeredRequest?: PermissionRequest;
  /** UNFINISHED only when read: withClock settles an ask nobody is at work on (never stored) */
  outcome: 'COMPLETED' | 'INTERRUPTED' | 'UNFINISHED' | null;
  openedAt: number;
  updatedAt: number;
  children: ChildGoal[];
  /** set when read: the anchor of the newer ask of the session this open one rolled up under */
  rolledUpInto?: string;
}
