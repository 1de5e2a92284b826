// Text measured and cut in characters, meaning Unicode code points: what GraphQL's String
// holds and what most languages count, so a client in any language can compare `length` with
// what `text(maxChars:)` gave it. A cut never splits a character in two (JavaScript's own
// `length` and `slice` count UTF-16 units, and would split an emoji).

const HIGH_SURROGATE = /[\uD800-\uDBFF]/;

const isPair = (text: string, i: number): boolean => {
  const high = text.charCodeAt(i);
  const low = text.charCodeAt(i + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
};

/** The characters in a text. */
export function countChars(text: string): number {
  // most text has no character outside the BMP: one native scan says so
  if (!HIGH_SURROGATE.test(text)) return text.length;
  let pairs = 0;
  for (let i = 0; i < text.length - 1; i++) {
    if (isPair(text, i)) {
      pairs++;
      i++;
    }
  }
  return text.length - pairs;
}

/** The text's first `max` characters (the whole text when it has no more). Walks only the prefix. */
export function firstChars(text: string, max: number): string {
  if (max >= text.length) return text;
  let units = 0;
  for (let chars = 0; chars < max && units < text.length; chars++) units += isPair(text, units) ? 2 : 1;
  return text.slice(0, units);
}
