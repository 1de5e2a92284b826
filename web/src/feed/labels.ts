import type { BlockKind, ChildKind, GoalStatus } from './types';

// The words the feed uses for the API's enums.

export const COLUMN_TITLE: Record<GoalStatus, string> = { WORKING: 'Working', BLOCKED: 'Needs you', COMPLETED: 'Completed' };

export const STATUS_LABEL: Record<GoalStatus, string> = { WORKING: 'working', BLOCKED: 'needs you', COMPLETED: 'done' };

const BLOCK_LABEL: Record<BlockKind, string> = { PERMISSION: 'Permission', QUESTION: 'Question', PLAN_APPROVAL: 'Plan approval', ERROR: 'Error' };

export const CHILD_KIND_LABEL: Record<ChildKind, string> = { TODO: 'todo', TASK: 'task', SUBAGENT: 'subagent', ASK: 'earlier ask' };

/** "Permission: Bash(rm -rf build)": what the goal waits for, in one line. */
export function blockLine(block: { kind: BlockKind; text: string }): string {
  return `${BLOCK_LABEL[block.kind]}: ${block.text}`;
}

/** "3/5": parts done out of all parts; empty when the goal has none. */
export function progress(children: { status: GoalStatus }[]): string {
  if (children.length === 0) return '';
  return `${children.filter((c) => c.status === 'COMPLETED').length}/${children.length}`;
}

/** How the goal's last request closed, in a few words: who answered it, or why nobody did through Loom. */
export function answeredLine(request: { state: string; answeredBy: string | null; answer: string | null }): string {
  if (request.state === 'ANSWERED') return `${request.answer ?? 'answered'} from ${request.answeredBy === 'local' ? 'Loom' : request.answeredBy}`;
  if (request.state === 'ANSWERED_AT_TERMINAL') return 'answered at the terminal';
  if (request.state === 'WITHDRAWN') return 'Claude Code stopped asking (answered at the terminal, or interrupted)';
  return 'Loom stopped waiting: answer it at the terminal';
}
