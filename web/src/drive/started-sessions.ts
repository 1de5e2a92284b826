import { createStore } from '../lib/store';
import { useSessions } from '../tabs/sessions';

// Sessions this page started whose transcript the kernel has not read yet: startSession answers
// once Claude Code names the session, and its tab follows through sessionsChanged a moment
// later. Until then the chat says it is starting instead of "no such session".

const starting = createStore<ReadonlyMap<string, string>>(new Map());

/** A session just started in `dir`, not yet in the session list. */
export function startedSession(sessionId: string, dir: string): void {
  starting.set(new Map(starting.get()).set(sessionId, dir));
}

/** The directory of a session this page started and the kernel has not listed yet, else null. */
export function useStarting(sessionId: string): string | null {
  const { byId } = useSessions();
  const dir = starting.use().get(sessionId) ?? null;
  return dir !== null && !byId.has(sessionId) ? dir : null;
}
