import { UNKNOWN_LIVE } from '../live/hook-state';
import type { ChildGoal, Goal } from '../model/goal';
import type { LiveState } from '../model/live';

// Working needs a sign of life: a live hook state that says the session is at work, or a record
// whose own timestamp is recent by the kernel's clock (never a file's mtime, which is "now" in a
// fresh clone). An ask left open in a transcript that went silent is unfinished, not working.
// Applied when goals are read, never stored: the answer changes with the clock alone.

/** How long after its last record an open turn still counts as at work without a hook saying so. */
export const WORKING_WINDOW_MS = 10 * 60_000;

const LIVE_AT_WORK = new Set<LiveState['state']>(['WORKING', 'PERMISSION', 'COMPACTING']);

/**
 * Whether the newest turn of a session, last active at `lastRecordAt`, may still be at work now.
 * The hooks speak for the session, so only of its newest turn: an older one is past, whatever
 * the session does now.
 */
export function hasSignOfLife(lastRecordAt: number, live: LiveState, now: number): boolean {
  // within the window either way: a record dated months ahead of the clock is no sign of life
  return LIVE_AT_WORK.has(live.state) || Math.abs(now - lastRecordAt) <= WORKING_WINDOW_MS;
}

/**
 * The goals (oldest first) with what the clock says. A session works on one ask at a time: of its
 * goals still working with a sign of life, the newest stays in working and the older ones roll up
 * under it (they become its parts, of kind ASK, and name it in `rolledUpInto`; the feed shows
 * them there, not as cards of their own). Every other goal whose rolled-up status was WORKING is
 * settled as left open. The hooks' state counts for the session's newest goal only. BLOCKED goals
 * stay as they are: only the answer clears a hard block, however old it is.
 */
export function withClock(goals: Goal[], live: LiveState, now: number): Goal[] {
  const last = goals.length - 1;
  const alive = goals.map((goal, i) => goal.rolledUpStatus === 'WORKING' && hasSignOfLife(goal.updatedAt, i === last ? live : UNKNOWN_LIVE, now));
  const working = alive.lastIndexOf(true);
  const older = goals.filter((_, i) => alive[i] && i !== working);
  return goals.map((goal, i) => {
    if (i === working) return older.length === 0 ? goal : { ...goal, children: [...goal.children, ...older.map(asPart)] };
    if (alive[i]) return { ...goal, rolledUpInto: goals[working].anchor };
    return goal.rolledUpStatus === 'WORKING' ? leftOpen(goal) : goal;
  });
}

const asPart = (goal: Goal): ChildGoal => ({ key: `ask-${goal.anchor}`, kind: 'ASK', title: goal.title, status: 'WORKING' });

/**
 * A goal nobody is at work on: COMPLETED, with outcome UNFINISHED, unless the user interrupted
 * it (that says why it is unfinished). Its parts stay as the transcript shows them: a part still
 * WORKING is one left open.
 */
function leftOpen(goal: Goal): Goal {
  return { ...goal, status: 'COMPLETED', rolledUpStatus: 'COMPLETED', outcome: goal.outcome === 'INTERRUPTED' ? 'INTERRUPTED' : 'UNFINISHED' };
}
