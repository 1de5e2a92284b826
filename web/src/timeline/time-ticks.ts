import { DAY, HOUR, MINUTE, span, type TimeWindow, WEEK } from './time-window';

// The time axis: the finest round step that leaves room for each label, in the browser's time
// zone (a tick at 15:00 means 15:00 on the viewer's clock).

export interface Tick {
  t: number;
  label: string;
}

const CLOCK_STEPS = [MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR];
const DAY_STEPS = [1, 2, 7, 14];
const MONTH_STEPS = [1, 3, 6];

const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const date = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });
const month = new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric' });

/** Ticks across the window for an axis `width` pixels wide, at least `gap` pixels apart. */
export function ticks(w: TimeWindow, width: number, gap = 90): Tick[] {
  if (width <= 0) return [];
  const least = (span(w) / width) * gap;
  const clockStep = CLOCK_STEPS.find((step) => step >= least);
  if (clockStep) return clockTicks(w, clockStep);
  const days = DAY_STEPS.find((n) => n * DAY >= least);
  if (days) return dayTicks(w, days);
  return monthTicks(w, MONTH_STEPS.find((n) => n * 30 * DAY >= least) ?? 12);
}

function clockTicks(w: TimeWindow, step: number): Tick[] {
  const midnight = localMidnight(w.from);
  const out: Tick[] = [];
  for (let t = midnight + Math.ceil((w.from - midnight) / step) * step; t <= w.to; t += step) {
    out.push({ t, label: isMidnight(t) ? date.format(t) : clock.format(t) });
  }
  return out;
}

function dayTicks(w: TimeWindow, days: number): Tick[] {
  const d = new Date(localMidnight(w.from));
  // weeks start on Monday
  if (days * DAY >= WEEK) d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  const out: Tick[] = [];
  for (; d.getTime() <= w.to; d.setDate(d.getDate() + days)) if (d.getTime() >= w.from) out.push({ t: d.getTime(), label: date.format(d) });
  return out;
}

function monthTicks(w: TimeWindow, months: number): Tick[] {
  const d = new Date(w.from);
  d.setHours(0, 0, 0, 0);
  d.setDate(1);
  d.setMonth(d.getMonth() - (d.getMonth() % months));
  const out: Tick[] = [];
  for (; d.getTime() <= w.to; d.setMonth(d.getMonth() + months)) if (d.getTime() >= w.from) out.push({ t: d.getTime(), label: month.format(d) });
  return out;
}

function localMidnight(t: number): number {
  const d = new Date(t);
  d.setHours(0, 0, 0, 0);
  return d.getTime();
}

const isMidnight = (t: number): boolean => localMidnight(t) === t;
