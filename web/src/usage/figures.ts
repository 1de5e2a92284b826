import type { ResultOf } from '../lib/graphql';
import type { USAGE_FIGURES, USAGE_ROW } from './queries';

// Usage figures as the page writes them: tokens short ("412k") with the exact counts by kind in a
// title, and cost with its status as the API gives it: an estimate from Loom's price table
// ("≈ $1.23"), or "unknown" when a model in it has no price (never a guess from another model).

export type Figures = ResultOf<typeof USAGE_FIGURES>;
export type UsageRow = ResultOf<typeof USAGE_ROW>;

const exact = new Intl.NumberFormat('en-US');
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** 950, 4.1k, 41.2k, 412k, 81.6M, 1.2B */
export function tokensText(n: number): string {
  const units = [
    [1e3, 'k'],
    [1e6, 'M'],
    [1e9, 'B'],
  ] as const;
  for (let i = units.length - 1; i >= 0; i--) {
    const [size, unit] = units[i];
    if (n < size) continue;
    const value = n / size;
    const shown = value >= 99.5 ? Math.round(value) : Number(value.toFixed(1));
    // 999,950 rounds to 1000k: that is 1M
    if (shown >= 1000 && i < units.length - 1) return `1${units[i + 1][1]}`;
    return `${shown}${unit}`;
  }
  return String(n);
}

/** "input 205 · output 19,035 · cache writes 190,624 · cache reads 4,257,841" */
export function tokensTitle(f: Figures): string {
  return [
    `input ${exact.format(f.inputTokens)}`,
    `output ${exact.format(f.outputTokens)}`,
    `cache writes ${exact.format(f.cacheCreationTokens)}`,
    `cache reads ${exact.format(f.cacheReadTokens)}`,
  ].join(' · ');
}

export const exactTokens = (n: number): string => exact.format(n);

/** US dollars: "$1,234.56", and "< $0.01" for a cost too small to show in cents. */
export function dollars(cost: number): string {
  return cost > 0 && cost < 0.005 ? '< $0.01' : usd.format(cost);
}

/** "≈ $1.23", or "unknown" when a model has no price. */
export function costText(f: Pick<Figures, 'cost' | 'costStatus'>): string {
  return f.cost === null || f.costStatus === 'UNKNOWN' ? 'unknown' : `≈ ${dollars(f.cost)}`;
}

/**
 * Why a cost reads as it does. `unpriced` names the models of the range without a price: one of
 * them is in any row whose cost is unknown, and with only one, that one is.
 */
export function costTitle(f: Pick<Figures, 'cost' | 'costStatus'>, unpriced: readonly string[] = []): string {
  if (f.cost !== null && f.costStatus !== 'UNKNOWN') return "Estimated from Loom's price table (USD, list prices): what you are billed may differ";
  const which = unpriced.length === 1 ? `${unpriced[0]} has` : unpriced.length > 1 ? `a model here (of ${unpriced.join(', ')}) has` : 'a model used here has';
  return `Unknown: ${which} no price in Loom's price table, so no cost is given; its tokens are counted`;
}

/** Rows added up as the API adds them: a cost survives only if every row has one. */
export function sumFigures(rows: readonly Figures[]): Figures {
  const sum: Figures = { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, totalTokens: 0, cost: 0, costStatus: 'ESTIMATED' };
  for (const r of rows) {
    sum.inputTokens += r.inputTokens;
    sum.outputTokens += r.outputTokens;
    sum.cacheCreationTokens += r.cacheCreationTokens;
    sum.cacheReadTokens += r.cacheReadTokens;
    sum.totalTokens += r.totalTokens;
    sum.cost = sum.cost === null || r.cost === null ? null : sum.cost + r.cost;
    if (r.costStatus === 'UNKNOWN') sum.costStatus = 'UNKNOWN';
  }
  if (sum.cost === null) sum.costStatus = 'UNKNOWN';
  return sum;
}

/** The models of these rows that have no price. */
export const unpricedModels = (models: readonly UsageRow[]): string[] => models.filter((m) => m.costStatus === 'UNKNOWN').map((m) => m.key);

/** Highest cost first; rows without a cost after them, most tokens first. */
export function byCost(a: UsageRow, b: UsageRow): number {
  if (a.cost !== null && b.cost !== null) return b.cost - a.cost || a.key.localeCompare(b.key);
  if (a.cost !== null) return -1;
  if (b.cost !== null) return 1;
  return b.totalTokens - a.totalTokens || a.key.localeCompare(b.key);
}
