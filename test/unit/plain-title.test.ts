import { describe, expect, it } from 'vitest';
import { plainTitle } from '../../web/src/lib/plain-title';

describe('a title written in Markdown, shown plain', () => {
  it('drops the marks of strong and emphasised words', () => {
    expect(plainTitle('You are **alice**, a teammate in an *experimental* collaboration')).toBe('You are alice, a teammate in an experimental collaboration');
    expect(plainTitle('__Plan__: ship _today_, ~~tomorrow~~')).toBe('Plan: ship today, tomorrow');
  });

  it('keeps a code span as written, without its backticks', () => {
    expect(plainTitle('fix `__init__` and `**kwargs` in models.py')).toBe('fix __init__ and **kwargs in models.py');
  });

  it('keeps the text of a link and drops a heading or quote mark', () => {
    expect(plainTitle('# Read [the docs](https://example.com/docs) first')).toBe('Read the docs first');
    expect(plainTitle('> quoted ask')).toBe('quoted ask');
  });

  it('leaves asterisks and underscores that mark nothing', () => {
    expect(plainTitle('compute 2 * 3 * 4 in snake_case_name or a**b')).toBe('compute 2 * 3 * 4 in snake_case_name or a**b');
    expect(plainTitle('glob src/**/*.ts')).toBe('glob src/**/*.ts');
  });
});
