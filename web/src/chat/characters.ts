// Characters as the API counts them in `length` and `maxChars`: code points (JavaScript's
// `length` counts UTF-16 units, two for most emoji).

export function countChars(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** Whether a text the API sent is all of it: `length` is what it said the whole has. */
export const isWhole = (text: string, length: number): boolean => countChars(text) >= length;

/** The characters of the longest string in a JSON value, as ToolUseBlock.longestString counts them. */
export function longestString(value: unknown): number {
  if (typeof value === 'string') return countChars(value);
  const items = Array.isArray(value) ? value : value && typeof value === 'object' ? Object.values(value) : [];
  return items.reduce<number>((longest, item) => Math.max(longest, longestString(item)), 0);
}
