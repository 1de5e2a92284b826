import { questionsOf } from '../act/decisions';
import type { PermissionRequest } from '../model/act';
import type { BlockKind, ChildGoal, Goal, GoalStatus } from '../model/goal';
import type { LiveState } from '../model/live';
import type { GoalTool, Turn } from '../model/types';
import { type Task, taskBoard } from './task-board';

// The deterministic judge: what each ask in a session is, and whether it needs its person.
// A goal is a turn opened by a human, an SDK caller or a peer. It is BLOCKED when something
// only a person can answer is waiting (the floor: a live permission prompt, an unanswered
// AskUserQuestion or ExitPlanMode, an API error that stopped the turn); only the answer clears
// it. Otherwise COMPLETED once the turn ended (outcome INTERRUPTED when the user stopped it),
// else WORKING. Its parts are the latest todo list of the turn, the tasks it created (TaskCreate)
// and the subagents it launched. Whether a WORKING goal is still at work is decided when read
// (sign-of-life.ts), since the answer changes with the clock.

/** The goals the transcript alone shows, oldest first. */
export function judgeGoals(turns: Turn[]): Goal[] {
  const tasks = taskBoard(turns);
  return turns.filter(isAsk).map((turn) => judge(turn, tasks));
}

/**
 * A turn a person, an SDK caller or a peer opened. A terminal note (`! ls`, `# remember…`,
 * `/clear`) is an ask only when the model ran for it (a slash command that expands to a prompt).
 */
const isAsk = (turn: Turn): boolean =>
  !!turn.trigger?.author && turn.trigger.author.kind !== 'system' && (!turn.trigger.terminalNote || turn.atoms.some((a) => a.type === 'assistant'));

/**
 * The goals with what the hooks say now: a live permission prompt blocks the newest goal of the
 * session (it is asking for the turn at work) until the transcript moves on after it (the tool
 * ran or was refused: the answer). Hook times have one-second resolution, so "after" means a
 * later second. Kept apart from judgeGoals so the transcript part can be stored while the
 * session sleeps and the live part applied when read.
 */
export function withLive(goals: Goal[], live: LiveState, request: PermissionRequest | null = null): Goal[] {
  const newest = goals[goals.length - 1];
  if (newest && request?.state === 'PENDING') {
    return [...goals.slice(0, -1), { ...newest, status: 'BLOCKED', rolledUpStatus: 'BLOCKED', block: blockFor(request), outcome: null }];
  }
  // a request of this goal closed: the goal says who answered it
  const answered = newest && request && request.createdAt >= newest.openedAt ? [...goals.slice(0, -1), { ...newest, answeredRequest: request }] : goals;
  const last = answered[answered.length - 1];
  if (!last || live.state !== 'PERMISSION') return answered;
  if (live.since !== null && last.updatedAt >= live.since + 1000) return answered;
  const block = { kind: 'PERMISSION' as const, text: live.detail ?? 'Claude Code is waiting for a permission' };
  return [...answered.slice(0, -1), { ...last, status: 'BLOCKED', rolledUpStatus: 'BLOCKED', block, outcome: null }];
}

function judge(turn: Turn, tasks: Map<string, Task>): Goal {
  const trigger = turn.trigger!;
  const created: Task[] = [];
  const waiting = new Map<string, GoalTool>();
  // each subagent's child goal, completed when its result comes
  const subagents = new Map<string, ChildGoal>();
  let todos: { content: string; status: string }[] | null = null;
  let erred = false;
  for (const atom of turn.atoms) {
    for (const id of atom.toolResults ?? []) {
      waiting.delete(id);
      const subagent = subagents.get(id);
      if (subagent) subagent.status = 'COMPLETED';
    }
    if (atom.type !== 'assistant') continue;
    // Claude Code writes a failed API call as a "<synthetic>" assistant line.
    erred = atom.model === '<synthetic>';
    for (const tool of atom.goalTools ?? []) {
      if (tool.kind === 'QUESTION' || tool.kind === 'PLAN_APPROVAL') waiting.set(tool.id, tool);
      else if (tool.kind === 'SUBAGENT') subagents.set(tool.id, { key: `subagent-${tool.id}`, kind: 'SUBAGENT', title: tool.text, status: 'WORKING' });
      else if (tool.kind === 'TODOS') todos = tool.todos;
      else if (tool.kind === 'TASK_CREATE' && tasks.has(tool.id)) created.push(tasks.get(tool.id)!);
    }
  }
  const block = blockOf(waiting, erred && !turn.ended);
  const status: GoalStatus = block ? 'BLOCKED' : turn.ended ? 'COMPLETED' : 'WORKING';
  // Plain loops rather than spreads of mapped arrays: each array shape a spread here met for the
  // first time made V8 drop this function's optimized code and compile it again, 6-7 times per
  // thread over a 1 GB index, the most of any function (loops: 3).
  const children: ChildGoal[] = [];
  if (todos !== null) {
    for (let i = 0; i < todos.length; i++) children.push({ key: `todo-${i + 1}`, kind: 'TODO', title: todos[i].content, status: doneOr(todos[i].status) });
  }
  for (const t of created) children.push({ key: `task-${t.number}`, kind: 'TASK', title: t.title, status: doneOr(t.status) });
  for (const subagent of subagents.values()) children.push(subagent);
  return {
    anchor: trigger.uuid,
    title: trigger.promptLine ?? '',
    origin: trigger.author!.kind,
    status,
    rolledUpStatus: rollUp(status, children),
    block,
    outcome: status === 'COMPLETED' ? (turn.interrupted ? 'INTERRUPTED' : 'COMPLETED') : null,
    openedAt: turn.t,
    updatedAt: turn.end,
    children,
  };
}

const doneOr = (status: string): GoalStatus => (status === 'completed' ? 'COMPLETED' : 'WORKING');

/** What a request held through Loom's hook asks, in the block's words. */
function blockFor(request: PermissionRequest): NonNullable<Goal['block']> {
  if (request.toolName === 'AskUserQuestion')
    return { kind: 'QUESTION', text: questionsOf(request.input)[0]?.question ?? 'Claude Code asks a question', request };
  if (request.toolName === 'ExitPlanMode') return { kind: 'PLAN_APPROVAL', text: 'Claude Code asks to approve its plan', request };
  return { kind: 'PERMISSION', text: `${request.toolName} needs permission`, request };
}

/** The hard-block floor the transcript shows: the last question or plan waiting for its answer, an API error. */
function blockOf(waiting: Map<string, GoalTool>, erred: boolean): Goal['block'] {
  let ask: GoalTool | null = null;
  for (const tool of waiting.values()) ask = tool;
  if (ask) return { kind: ask.kind as BlockKind, text: ask.text };
  if (erred) return { kind: 'ERROR', text: 'an API error stopped the turn' };
  return null;
}

function rollUp(status: GoalStatus, children: ChildGoal[]): GoalStatus {
  let rolled = status;
  for (const child of children) {
    if (child.status === 'BLOCKED') return 'BLOCKED';
    if (child.status !== 'COMPLETED' && rolled === 'COMPLETED') rolled = 'WORKING';
  }
  return rolled;
}
