// The ranges the usage view offers, and the days a range covers. A range of N days is today and
// the N − 1 days before it, from local midnight, so its chart has exactly N bars; days are
// counted in the reader's time zone, as the API is asked to count them.

export const RANGES = [
  { id: '7d', label: '7 days', days: 7 },
  { id: '30d', label: '30 days', days: 30 },
  { id: '90d', label: '90 days', days: 90 },
  { id: 'all', label: 'all', days: null },
] as const;

export type RangeId = (typeof RANGES)[number]['id'];
export const DEFAULT_RANGE: RangeId = '30d';

export const isRangeId = (value: unknown): value is RangeId => RANGES.some((r) => r.id === value);

export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The local midnight a range starts at, as RFC 3339; null for all of it. */
export function sinceOf(id: RangeId, now: Date): string | null {
  const days = RANGES.find((r) => r.id === id)?.days ?? null;
  if (days === null) return null;
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1)).toISOString();
}

/** YYYY-MM-DD of a moment, in the reader's time zone (en-CA writes dates that way). */
const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });
export const dayOf = (t: Date): string => dayFormat.format(t);

const DAY_MS = 86_400_000;

/** Every day from `first` to `last` (YYYY-MM-DD, both included): a day without usage is still a day. */
export function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  // calendar arithmetic on the dates themselves, at UTC: no daylight-saving hour in between
  for (let t = Date.parse(`${first}T00:00:00Z`), end = Date.parse(`${last}T00:00:00Z`); t <= end; t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}
