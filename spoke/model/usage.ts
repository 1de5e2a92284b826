// Tokens and cost as the model and the API carry them. How they are counted and priced is
// spoke/usage's business (usage.ts, report.ts); these are only the shapes.

export interface Tokens {
  input: number;
  output: number;
  /** all cache writes; the 5m/1h split below when the transcript gives it */
  cacheWrite: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  cacheRead: number;
}

/** Six token counts stored side by side in Tokens' order, from `at` (ledger columns, packed rows). */
export function tokensAt(values: ArrayLike<number>, at: number): Tokens {
  return {
    input: values[at],
    output: values[at + 1],
    cacheWrite: values[at + 2],
    cacheWrite5m: values[at + 3],
    cacheWrite1h: values[at + 4],
    cacheRead: values[at + 5],
  };
}

export interface MessageUsage extends Tokens {
  /** `message.id:requestId` hashed, or the line's uuid when either is missing (then it counts alone): usage/ledger.ts messageKey */
  key: number;
  t: number;
  model: string | null;
}

export type CostStatus = 'ESTIMATED' | 'UNKNOWN';
export type CostSource = 'CATALOG' | 'NONE';

export interface UsageTotals extends Tokens {
  cost: number | null;
  costStatus: CostStatus;
  costSource: CostSource;
}

/** Usage across sessions, grouped by day, session, model or host. */
export type UsageGroup = 'DAY' | 'SESSION' | 'MODEL' | 'HOST';

export interface UsageQuery {
  since: number | null;
  until: number | null;
  groupBy: UsageGroup;
  /** IANA zone the days are counted in */
  timeZone: string;
}

export interface UsageRow extends UsageTotals {
  /** the day (YYYY-MM-DD), the session id, the model or the host */
  key: string;
}
