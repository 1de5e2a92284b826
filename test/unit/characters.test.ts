import { describe, expect, it } from 'vitest';
import { countChars, firstChars } from '../../schema/characters';
import { cutStrings, longestString } from '../../schema/cut-strings';

// maxChars and length count code points (schema/characters.ts), and a tool call's input is cut
// string by string (schema/cut-strings.ts).

describe('counting and cutting characters', () => {
  it('counts a character outside the BMP once, where JavaScript counts two units', () => {
    expect(countChars('a😀b')).toBe(3);
    expect('a😀b'.length).toBe(4);
    expect(countChars('plain')).toBe(5);
    expect(countChars('')).toBe(0);
  });

  it('counts a lone surrogate as one character', () => {
    expect(countChars('a\uD800b')).toBe(3);
    expect(countChars('\uD83D')).toBe(1);
  });

  it('cuts after whole characters, never inside a pair', () => {
    expect(firstChars('a😀b', 1)).toBe('a');
    expect(firstChars('a😀b', 2)).toBe('a😀');
    expect(firstChars('😀😀😀', 2)).toBe('😀😀');
    expect(firstChars('abc', 0)).toBe('');
  });

  it('gives the text itself when it has no more characters than asked for', () => {
    const text = 'short 😀';
    expect(firstChars(text, 7)).toBe(text);
    expect(firstChars(text, 100)).toBe(text);
  });
});

describe("cutting a tool call's input", () => {
  const input = { file_path: '/tmp/a.txt', edits: [{ old_string: 'x'.repeat(50), new_string: '😀'.repeat(10) }], replace_all: false, n: 3 };

  it('cuts every string, nested ones too, and keeps keys, numbers and booleans', () => {
    expect(cutStrings(input, 4)).toEqual({ file_path: '/tmp', edits: [{ old_string: 'xxxx', new_string: '😀😀😀😀' }], replace_all: false, n: 3 });
    expect(cutStrings(null, 4)).toBeNull();
    expect(cutStrings('a string input', 1)).toBe('a');
  });

  it('names the longest string in characters, so a client knows when a cut input is whole', () => {
    expect(longestString(input)).toBe(50);
    expect(cutStrings(input, longestString(input))).toEqual(input);
    expect(longestString({ n: 1, flag: true })).toBe(0);
  });
});
