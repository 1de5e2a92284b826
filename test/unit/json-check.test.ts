import { describe, expect, it } from 'vitest';
import { array, boolean, literal, nullable, number, object, record, string, tuple } from '../../spoke/store/json-check';

// The checks of the index cache: a value passes only when every part has its shape.

const Session = object({
  key: string,
  parentKey: nullable(string),
  role: literal('main', 'subagent'),
  archived: boolean,
  counts: record(number),
  files: array(object({ path: string, bytes: number })),
  pairs: array(tuple(string, string)),
});
const good = {
  key: 'k',
  parentKey: null,
  role: 'main',
  archived: false,
  counts: { user: 2, assistant: 3 },
  files: [{ path: '/p/k.jsonl', bytes: 10 }],
  pairs: [['leaf', 'summary']],
};

describe('json checks', () => {
  it('pass a value of the shape, extra keys and all', () => {
    expect(Session(good)).toBe(true);
    expect(Session({ ...good, parentKey: 'p', extra: [1] })).toBe(true);
  });

  it('fail a value with any part out of shape', () => {
    const bad: unknown[] = [
      null,
      [good],
      { ...good, key: undefined },
      { ...good, parentKey: 1 },
      { ...good, role: 'other' },
      { ...good, archived: 'no' },
      { ...good, counts: { user: '2' } },
      { ...good, counts: [] },
      { ...good, files: [{ path: '/p/k.jsonl' }] },
      { ...good, files: {} },
      { ...good, pairs: [['leaf']] },
      { ...good, pairs: [['leaf', 'summary', 'more']] },
    ];
    for (const value of bad) expect(Session(value), JSON.stringify(value)).toBe(false);
  });
});
