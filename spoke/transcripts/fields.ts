// Tiny typed readers for untrusted JSON. The indexing hot path uses these instead of a zod
// schema: zod cost a quarter of cold-index throughput when measured on real transcripts
// (docs/performance.md), and a record header has only a handful of fields we rely on.

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export const arr = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);

/**
 * `text` as a string of its own: V8 keeps the whole of a string alive for a slice, trim or regex
 * match of it, and a record kept for the session's life must not hold a 40 MB prompt for the
 * line or the id it takes from it.
 */
export const ownString = (text: string): string =>
  // UTF-16 both ways: every code unit back as it was, a lone surrogate too
  Buffer.from(text, 'utf16le').toString('utf16le');

/** `text` cut to `max` characters, the last an ellipsis, as a string of its own. */
export const clipped = (text: string, max: number): string => ownString(text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** RFC 3339 timestamp to epoch ms; null when missing or unparseable. */
export function time(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const t = isoMillis(v);
  return t >= 0 ? t : parsed(v);
}

function parsed(v: string): number | null {
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

const digit = (s: string, at: number): number => s.charCodeAt(at) - 0x30;
const digits = (s: string, at: number, n: number): number => {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const d = digit(s, i);
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
};

/**
 * `2026-01-31T10:00:00.000Z`, the form every transcript line's time has (toISOString), read
 * without Date.parse (1.5 % of a cold index's CPU on the synthetic corpus); -1 for any other
 * form, which Date.parse reads. A day past its month's end rolls over as Date.parse rolls it.
 */
function isoMillis(v: string): number {
  if (v.length !== 24 || v[4] !== '-' || v[7] !== '-' || v[10] !== 'T' || v[13] !== ':' || v[16] !== ':' || v[19] !== '.' || v[23] !== 'Z') return -1;
  const year = digits(v, 0, 4);
  const month = digits(v, 5, 2);
  const day = digits(v, 8, 2);
  const hour = digits(v, 11, 2);
  const minute = digits(v, 14, 2);
  const second = digits(v, 17, 2);
  const ms = digits(v, 20, 3);
  if (
    year < 1970 ||
    month < 1 ||
    month > 12 ||
    day < 1 ||
    day > 31 ||
    hour < 0 ||
    hour > 23 ||
    minute < 0 ||
    minute > 59 ||
    second < 0 ||
    second > 59 ||
    ms < 0
  )
    return -1;
  return ((daysBefore(year, month) + day - 1) * 24 + hour) * 3_600_000 + minute * 60_000 + second * 1000 + ms;
}

/** Days from 1970-01-01 to the first of a month (years from 1970 on). */
function daysBefore(year: number, month: number): number {
  // the civil calendar counted from March, so a leap day ends its year (Hinnant's days_from_civil)
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5);
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
