import { createContext, useContext } from 'react';
import type { LiveKind } from '../tabs/sessions';
import type { ChatAtom } from './types';

// Whether the session in the chat may still be running a tool: a call without a result is
// "running…" only then, and "no result" once the session went quiet (its transcript ended
// during the call). Same sign of life as the feed's working column: a live hook state at work,
// or a newest line within ten minutes.

const WINDOW_MS = 10 * 60_000;
const AT_WORK = new Set<LiveKind>(['WORKING', 'PERMISSION', 'COMPACTING']);

export const AtWork = createContext(true);

export const useAtWork = (): boolean => useContext(AtWork);

export function isAtWork(live: LiveKind, atoms: readonly ChatAtom[], now: number): boolean {
  const newest = atoms[atoms.length - 1];
  return AT_WORK.has(live) || (!!newest && Math.abs(now - Date.parse(newest.t)) <= WINDOW_MS);
}
