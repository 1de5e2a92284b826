const clock = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const day = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const dayOfYear = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "14:02" today, "Jun 8, 14:02" this year, "Jun 8, 2025, 14:02" before: a moment, as short as it stays clear. */
export function when(iso: string, now = Date.now()): string {
  const t = new Date(iso);
  const today = new Date(now);
  if (t.toDateString() === today.toDateString()) return clock.format(t);
  return (t.getFullYear() === today.getFullYear() ? day : dayOfYear).format(t);
}
