// The window of time the timeline shows, and the ways to move it. Times are epoch ms.

export interface TimeWindow {
  from: number;
  to: number;
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const WEEK = 7 * DAY;

const MIN_SPAN = 5 * MINUTE;
const MAX_SPAN = 366 * DAY;

export const PRESETS = [
  { label: '1h', span: HOUR },
  { label: '6h', span: 6 * HOUR },
  { label: '1d', span: DAY },
  { label: '1w', span: WEEK },
  { label: '4w', span: 4 * WEEK },
] as const;

export const span = (w: TimeWindow): number => w.to - w.from;

const clampSpan = (ms: number): number => Math.min(MAX_SPAN, Math.max(MIN_SPAN, ms));

/** Where `t` falls across the window: 0 at `from`, 1 at `to` (outside for times outside it). */
export const fractionOf = (w: TimeWindow, t: number): number => (t - w.from) / span(w);

/** The window ending a little after `end`, so the newest bar is not pressed against the edge. */
export function endingAt(end: number, ms: number): TimeWindow {
  const width = clampSpan(ms);
  const to = end + width * 0.03;
  return { from: to - width, to };
}

/** The same end, another span: what the presets do. */
export const withSpan = (w: TimeWindow, ms: number): TimeWindow => ({ from: w.to - clampSpan(ms), to: w.to });

/** Zooms by `factor` (above 1 zooms out) keeping the time at `anchor` (0…1 across) in place. */
export function zoom(w: TimeWindow, factor: number, anchor = 0.5): TimeWindow {
  const width = clampSpan(span(w) * factor);
  const at = w.from + span(w) * anchor;
  const from = at - width * anchor;
  return { from, to: from + width };
}

/** Moves the window by a fraction of its span (negative: back in time). */
export function pan(w: TimeWindow, fraction: number): TimeWindow {
  const shift = span(w) * fraction;
  return { from: w.from + shift, to: w.to + shift };
}

/** The window over all of these sessions' activity (as much as the widest zoom allows). */
export function fitting(sessions: { startedAt: string; updatedAt: string }[]): TimeWindow | null {
  if (sessions.length === 0) return null;
  const oldest = Math.min(...sessions.map((s) => Date.parse(s.startedAt)));
  const newest = Math.max(...sessions.map((s) => Date.parse(s.updatedAt)));
  return endingAt(newest, (newest - oldest) * 1.06);
}

export const activeIn = (w: TimeWindow, s: { startedAt: string; updatedAt: string }): boolean =>
  Date.parse(s.startedAt) <= w.to && Date.parse(s.updatedAt) >= w.from;
