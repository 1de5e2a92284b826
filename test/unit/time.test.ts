import { describe, expect, it } from 'vitest';
import { time } from '../../spoke/transcripts/fields';

// A line's time is read without Date.parse when it has toISOString's form; it must be exactly
// what Date.parse gives (rolled-over days included), and any other form is Date.parse's.

const dateParse = (s: string): number | null => (Number.isNaN(Date.parse(s)) ? null : Date.parse(s));
const pad = (n: number, width: number) => String(n).padStart(width, '0');

describe('time', () => {
  it("reads every day of every month, each day past a month's end and every field's bounds as Date.parse does", () => {
    const differ: string[] = [];
    for (let year = 1969; year <= 2101; year++) {
      for (let month = 0; month <= 13; month++) {
        for (let day = 0; day <= 32; day++) {
          const clock = `${pad((year + day) % 25, 2)}:${pad((month * 7 + day) % 61, 2)}:${pad((day * 13) % 61, 2)}.${pad((year * day) % 1000, 3)}`;
          const text = `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${clock}Z`;
          if (time(text) !== dateParse(text)) differ.push(text);
        }
      }
    }
    expect(differ).toEqual([]);
  });

  it('reads times spread over three centuries as Date.parse does', () => {
    let seed = 7;
    for (let i = 0; i < 20_000; i++) {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      const text = new Date(seed * 2_000).toISOString();
      expect(time(text)).toBe(Date.parse(text));
    }
  });

  it('leaves every other form to Date.parse, and says null for what it cannot read', () => {
    const forms = [
      '2026-01-31T10:00:00Z',
      '2026-01-31T10:00:00.000+02:00',
      '2026-01-31 10:00:00.000Z',
      '2026-1-31T10:00:00.000Z',
      '0099-01-01T00:00:00.000Z',
      '+012026-01-01T00:00:00.000Z',
      '2026-01-31T1a:00:00.000Z',
      'yesterday',
      '',
    ];
    for (const text of forms) expect(time(text)).toBe(dateParse(text));
    expect(time('yesterday')).toBeNull();
    expect(time(1_700_000_000_000)).toBeNull();
  });
});
