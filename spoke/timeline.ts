import { hasSignOfLife } from './goals/sign-of-life';
import type { LiveSpan } from './model/live';
import { BadInputError, type BarStatus, type TimelineLane, type TimelineQuery } from './model/source';
import type { SessionSummary, Turn } from './model/types';

// The timeline: one lane per top-level session active in a window, drawn from its turns. Pure:
// LocalSource gathers the sessions, their turns and their hook spans; these functions choose the
// sessions and shape what meets the window into lanes.

export const DEFAULT_LANES = 20;
/** Each lane reads a session's turns, which wakes it (only 64 stay awake by default): keep it modest. */
export const MAX_LANES = 100;
/** How many sessions one request may name. */
export const MAX_NAMED_SESSIONS = 1000;

/** Refuses arguments the caller can fix. */
export function checkTimelineQuery(query: TimelineQuery): void {
  const { from, to, lanes, sessions } = query;
  if (!(to > from)) throw new BadInputError(`"to" must be after "from", got from ${iso(from)} to ${iso(to)}`);
  if (!Number.isInteger(lanes) || lanes < 1 || lanes > MAX_LANES) {
    throw new BadInputError(`"lanes" must be a whole number from 1 to ${MAX_LANES}, got ${lanes}`);
  }
  if (sessions && sessions.length > MAX_NAMED_SESSIONS) {
    throw new BadInputError(`"sessions" may name at most ${MAX_NAMED_SESSIONS} sessions, got ${sessions.length}`);
  }
}

/** Sessions whose activity meets the window, most recently active first, at most `lanes`. */
export function laneSessions(all: SessionSummary[], query: TimelineQuery): SessionSummary[] {
  const named = query.sessions ? new Set(query.sessions.map((s) => `${s.host}:${s.key}`)) : null;
  return all
    .filter((s) => s.startedAt <= query.to && s.updatedAt >= query.from && (!named || named.has(`${s.host}:${s.key}`)))
    .sort((a, b) => b.updatedAt - a.updatedAt || a.key.localeCompare(b.key))
    .slice(0, query.lanes);
}

/** A session's lane: what of its turns and hook spans meets the window, as it is at `now`. */
export function timelineLane(session: SessionSummary, turns: Turn[], stripes: LiveSpan[], query: TimelineQuery, now: number): TimelineLane {
  const meets = (t: number, end: number | null) => t <= query.to && (end ?? Infinity) >= query.from;
  const lane: TimelineLane = { session, bars: [], idle: [], triggers: [], stripes: stripes.filter((s) => meets(s.t, s.end)) };
  for (const turn of turns) {
    if (!meets(turn.t, turn.end)) continue;
    const trigger = turn.trigger?.promptLine ?? null;
    for (const segment of turn.segments) {
      if (!meets(segment.t, segment.end)) continue;
      const last = segment.index === turn.segments.length - 1;
      lane.bars.push({
        turnId: turn.id,
        turnIndex: turn.index,
        segmentIndex: segment.index,
        t: segment.t,
        end: segment.end,
        // an earlier segment ended when the next input arrived
        status: last ? barStatus(turn, turn === turns[turns.length - 1] && hasSignOfLife(turn.end, session.live, now)) : 'ended',
        trigger,
        input: segment.input?.promptLine ?? null,
      });
    }
    for (const atom of turn.atoms) {
      if (atom.type === 'idle' && atom.idleUntil !== undefined && meets(atom.t, atom.idleUntil)) lane.idle.push({ t: atom.t, end: atom.idleUntil });
    }
    if (turn.trigger && meets(turn.trigger.t, turn.trigger.t)) lane.triggers.push({ turnId: turn.id, t: turn.trigger.t, text: trigger });
  }
  return lane;
}

/** A turn that never ended is running only while the session shows a sign of life, and only its newest. */
function barStatus(turn: Turn, alive: boolean): BarStatus {
  if (turn.interrupted) return 'interrupted';
  if (turn.ended) return 'ended';
  return alive ? 'running' : 'unfinished';
}

const iso = (t: number) => (Number.isFinite(t) ? new Date(t).toISOString() : String(t));
