import { countChars, firstChars } from './characters';

// A JSON value (a tool call's input) with each string in it cut to its first characters: its
// shape stays, so a reader still finds `old_string` or `todos`, while no string in it can be huge
// (a Write of a 10 MB file is one such string).

/** The value with every string longer than `max` characters cut to its first `max`. */
export function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return firstChars(value, max);
  if (Array.isArray(value)) return value.map((item) => cutStrings(item, max));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, cutStrings(item, max)]));
  return value;
}

/** The characters of the longest string in the value: `cutStrings` leaves it whole at this `max` or more. */
export function longestString(value: unknown): number {
  if (typeof value === 'string') return countChars(value);
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  let longest = 0;
  for (const item of items) longest = Math.max(longest, longestString(item));
  return longest;
}
