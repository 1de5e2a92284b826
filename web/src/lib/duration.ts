/** "45s", "12m", "3h 5m", "2d 4h": how long something lasted. */
export function duration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}

/** The same between two RFC 3339 times. */
export const durationBetween = (from: string, to: string): string => duration(Date.parse(to) - Date.parse(from));
