import { describe, expect, it } from 'vitest';
import { asciiJson } from '../../spoke/store/ascii-json';

describe('asciiJson', () => {
  it('writes ASCII JSON as JSON.stringify does', () => {
    const value = { title: 'Fix the test', n: [1, null, true], quote: '"\\\n' };
    expect(asciiJson(value)).toBe(JSON.stringify(value));
  });

  it('writes each character past ASCII as a four-digit escape, and JSON.parse reads back the same value', () => {
    const value = { title: 'clipped…', accents: 'é\u0080ÿ', wide: '\u0100\u0fff\u1000\uffff', arrow: 'a → b' };
    const json = asciiJson(value);
    expect(json).not.toMatch(/[\u0080-\uffff]/);
    expect(json).toContain('clipped\\u2026');
    expect(json).toContain('\\u00e9\\u0080\\u00ff');
    expect(json).toContain('\\u0100\\u0fff\\u1000\\uffff');
    expect(JSON.parse(json)).toEqual(value);
  });

  it('keeps a surrogate pair as two escapes, one per UTF-16 unit', () => {
    expect(asciiJson('😀')).toBe('"\\ud83d\\ude00"');
    expect(JSON.parse(asciiJson('x😀y'))).toBe('x😀y');
  });

  it('reads back any text it is given', () => {
    for (let round = 0; round < 2000; round++) {
      const text = Array.from({ length: 24 }, (_, i) =>
        String.fromCharCode(i % 2 === 0 ? 0x20 + ((round * 7 + i) % 0x5f) : (round * 131 + i * 977) % 0x10000),
      ).join('');
      expect(JSON.parse(asciiJson(text))).toBe(text);
    }
  });
});
