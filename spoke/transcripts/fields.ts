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

/** The length of every transcript line's time (toISOString's form). */
const ISO_LENGTH = 24;
const scratch = new Uint8Array(ISO_LENGTH);

/** RFC 3339 timestamp to epoch ms; null when missing or unparseable. */
export function time(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const t = v.length === ISO_LENGTH && asciiInto(v, scratch) ? isoMillis(scratch, 0) : -1;
  return t >= 0 ? t : parsed(v);
}

/**
 * The time of the string at bytes [from, to) of `bytes` (UTF-8, no escapes) when it has the form
 * every transcript line's time has, else -1 (time() of the string reads any other): the line
 * scanner's timestamps, read without making their strings.
 */
export const isoMillisAt = (bytes: Uint8Array, from: number, to: number): number => (to - from === ISO_LENGTH ? isoMillis(bytes, from) : -1);

function parsed(v: string): number | null {
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}

/** Copies an ASCII string's characters into `to`; false for any other string. */
function asciiInto(v: string, to: Uint8Array): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c > 0x7f) return false;
    to[i] = c;
  }
  return true;
}

const digits = (b: Uint8Array, at: number, n: number): number => {
  let value = 0;
  for (let i = at; i < at + n; i++) {
    const d = b[i] - 0x30;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
};

/**
 * `2026-01-31T10:00:00.000Z`, the form every transcript line's time has (toISOString), at `at` in
 * `b` (24 bytes), read without Date.parse (1.5 % of a cold index's CPU on the synthetic corpus);
 * -1 for any other form, which Date.parse reads. A day past its month's end rolls over as
 * Date.parse rolls it.
 */
function isoMillis(b: Uint8Array, at: number): number {
  if (
    b[at + 4] !== 0x2d ||
    b[at + 7] !== 0x2d ||
    b[at + 10] !== 0x54 ||
    b[at + 13] !== 0x3a ||
    b[at + 16] !== 0x3a ||
    b[at + 19] !== 0x2e ||
    b[at + 23] !== 0x5a
  )
    return -1;
  const year = digits(b, at, 4);
  const month = digits(b, at + 5, 2);
  const day = digits(b, at + 8, 2);
  const hour = digits(b, at + 11, 2);
  const minute = digits(b, at + 14, 2);
  const second = digits(b, at + 17, 2);
  const ms = digits(b, at + 20, 3);
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
