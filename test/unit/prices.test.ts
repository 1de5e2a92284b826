import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import prices from '../../spoke/usage/prices.json';

const SHARED = join(import.meta.dirname, '..', '..', '..', 'shared', 'data', 'pricing', 'claude-models.json');

describe("Loom's price table", () => {
  it('agrees with the shared Claude price data for every model it lists, and prices 1-hour cache writes at twice the input rate', () => {
    const reference = JSON.parse(readFileSync(SHARED, 'utf8'));
    const models = Object.entries(prices.models);
    expect(models.length).toBeGreaterThan(10);
    for (const [model, rates] of models) {
      const cost = reference[model]?.cost;
      expect(cost, `${model} is in the shared price data`).toBeDefined();
      expect({ model, input: rates.input, output: rates.output, cacheRead: rates.cacheRead, cacheWrite5m: rates.cacheWrite5m }).toEqual({
        model,
        input: cost.input,
        output: cost.output,
        cacheRead: cost.cache_read,
        cacheWrite5m: cost.cache_write,
      });
      expect(rates.cacheWrite1h).toBe(rates.input * 2);
    }
  });
});
