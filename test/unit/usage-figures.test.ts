import { describe, expect, it } from 'vitest';
import { tokensText } from '../../web/src/usage/figures';

describe('tokensText', () => {
  it('writes small counts whole and larger ones in k, M and B with one decimal under 100', () => {
    expect([0, 950, 999, 1000, 4_100, 41_200, 412_000, 81_600_000, 1_200_000_000].map(tokensText)).toEqual([
      '0',
      '950',
      '999',
      '1k',
      '4.1k',
      '41.2k',
      '412k',
      '81.6M',
      '1.2B',
    ]);
  });

  it('moves to the next unit when rounding reaches a thousand of this one', () => {
    expect([999_949, 999_950, 999_500_000].map(tokensText)).toEqual(['1M', '1M', '1B']);
  });
});
