// The goal fields the feed shows on a card, as `feed` and `feedChanged` send them.

export type GoalStatus = 'WORKING' | 'BLOCKED' | 'COMPLETED';
export type BlockKind = 'PERMISSION' | 'QUESTION' | 'PLAN_APPROVAL' | 'ERROR';
export type ChildKind = 'TODO' | 'TASK' | 'SUBAGENT' | 'ASK';
/** UNFINISHED: left open with nobody at work on it (the kernel decides, by its clock) */
export type GoalOutcome = 'COMPLETED' | 'INTERRUPTED' | 'UNFINISHED';

export interface FeedGoal {
  id: string;
  title: string;
  status: GoalStatus;
  rolledUpStatus: GoalStatus;
  outcome: GoalOutcome | null;
  openedAt: string;
  updatedAt: string;
  block: { kind: BlockKind; text: string } | null;
  children: { status: GoalStatus }[];
  session: { id: string; name: string; host: { name: string } } | null;
}

export const CARD_FIELDS = `id title status rolledUpStatus outcome openedAt updatedAt block { kind text }
  children { status } session { id name host { name } }`;

/** Goal ids are `host:sessionKey/promptUuid`; the part before the slash is the session's id. */
export function sessionIdOf(goalId: string): string {
  return goalId.slice(0, goalId.indexOf('/'));
}
