import { useEffect, useState } from 'react';
import { query } from '../lib/gql';
import type { ResultOf } from '../lib/graphql';
import { TIMELINE } from './queries';
import type { TimeWindow } from './time-window';

// The lanes of a window, read from `timeline(from, to, lanes, sessions)`. Asked again, after a
// short pause, whenever the window or `version` (what the pane knows of those sessions) changes.

/** The API's maximum: each lane wakes a session on the kernel. */
export const MAX_LANES = 100;
const SETTLE_MS = 150;
/**
 * While a bar is running, ask again this often: the kernel draws a turn that went silent as
 * unfinished, and the page would otherwise learn of it only from the session's next change.
 */
const RUNNING_RECHECK_MS = 60_000;

/** A session's lane; a bar's status is UNFINISHED for a turn that never ended and shows no sign of life. */
export type Lane = ResultOf<typeof TIMELINE>['timeline'][number];
export type Bar = Lane['bars'][number];

export interface TimelineData {
  /** null until the first answer */
  lanes: readonly Lane[] | null;
  error: string | null;
}

/** Lanes for `sessionIds` (most recently active first) over the window; none asked when the list is empty. */
export function useTimeline(window: TimeWindow | null, sessionIds: string[], version: string): TimelineData {
  const [data, setData] = useState<TimelineData>({ lanes: null, error: null });
  const [recheck, setRecheck] = useState(0);
  const from = window?.from;
  const to = window?.to;
  const running = data.lanes?.some((lane) => lane.bars.some((bar) => bar.status === 'RUNNING')) ?? false;
  useEffect(() => {
    if (!running) return;
    const timer = setTimeout(() => setRecheck((n) => n + 1), RUNNING_RECHECK_MS);
    return () => clearTimeout(timer);
  }, [running, data]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: sessionIds is summed up in version, which also changes when those sessions do
  useEffect(() => {
    if (from === undefined || to === undefined) return;
    if (sessionIds.length === 0) {
      setData({ lanes: [], error: null });
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      const variables = { from: new Date(from).toISOString(), to: new Date(to).toISOString(), lanes: MAX_LANES, sessions: sessionIds.slice(0, MAX_LANES) };
      query(TIMELINE, variables)
        .then((result) => current && setData({ lanes: result.timeline, error: null }))
        .catch((err: Error) => current && setData((previous) => ({ ...previous, error: `The timeline could not be loaded: ${err.message}` })));
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [from, to, version, recheck]);
  return data;
}
