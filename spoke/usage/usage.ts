import type { AtomMeta } from '../model/types';
import type { MessageUsage, Tokens, UsageTotals } from '../model/usage';
import prices from './prices.json';

// Token accounting and cost (the shapes are spoke/model/usage.ts). One API message is often written as several transcript lines that
// share message.id and requestId; it counts once, as the copy with the largest total (early
// copies carry partial output counts). Cost comes from Loom's own price table; a model it does
// not list has no price, and any total that includes it has an UNKNOWN cost: no other model's
// rate is ever used instead.

interface Rates {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
}

const RATES: Record<string, Rates> = prices.models;
const PER_TOKEN = 1 / 1_000_000;

export const tokenTotal = (t: Tokens): number => t.input + t.output + t.cacheWrite + t.cacheRead;

/** Of two copies of one message, the one to count. */
export const larger = <T extends Tokens>(a: T, b: T): T => (tokenTotal(b) > tokenTotal(a) ? b : a);

/** Tokens of one API message and the model that produced them. */
export type Priced = Tokens & { model: string | null };

/** A message's cost in USD, or null when its model has no price. */
export function costOf(message: Priced): number | null {
  if (tokenTotal(message) === 0) return 0;
  const rates = message.model ? RATES[message.model] : undefined;
  if (!rates) return null;
  // Writes the transcript does not split by lifetime are priced at the 5-minute rate, the
  // default lifetime of a cache write.
  const unsplit = Math.max(0, message.cacheWrite - message.cacheWrite5m - message.cacheWrite1h);
  return (
    (message.input * rates.input +
      message.output * rates.output +
      message.cacheRead * rates.cacheRead +
      (message.cacheWrite5m + unsplit) * rates.cacheWrite5m +
      message.cacheWrite1h * rates.cacheWrite1h) *
    PER_TOKEN
  );
}

export const hasPrice = (model: string): boolean => model in RATES;

/** Sums messages (already counted once each). The cost survives only if every part has one. */
export function totals(messages: Iterable<Priced>): UsageTotals {
  const sum: UsageTotals = {
    input: 0,
    output: 0,
    cacheWrite: 0,
    cacheWrite5m: 0,
    cacheWrite1h: 0,
    cacheRead: 0,
    cost: 0,
    costStatus: 'ESTIMATED',
    costSource: 'CATALOG',
  };
  for (const m of messages) {
    sum.input += m.input;
    sum.output += m.output;
    sum.cacheWrite += m.cacheWrite;
    sum.cacheWrite5m += m.cacheWrite5m;
    sum.cacheWrite1h += m.cacheWrite1h;
    sum.cacheRead += m.cacheRead;
    const cost = costOf(m);
    sum.cost = cost === null || sum.cost === null ? null : sum.cost + cost;
  }
  if (sum.cost === null) {
    sum.costStatus = 'UNKNOWN';
    sum.costSource = 'NONE';
  }
  return sum;
}

/** Adds messages to a ledger keyed by message, keeping the larger copy of each. */
export function record(ledger: Map<number, MessageUsage>, message: MessageUsage): void {
  const seen = ledger.get(message.key);
  ledger.set(message.key, seen ? larger(seen, message) : message);
}

/** Two groups' totals as one (their messages are distinct, as on two machines): a cost is known only when both are. */
export function addTotals(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheWrite5m: a.cacheWrite5m + b.cacheWrite5m,
    cacheWrite1h: a.cacheWrite1h + b.cacheWrite1h,
    cacheRead: a.cacheRead + b.cacheRead,
    cost: a.cost !== null && b.cost !== null ? a.cost + b.cost : null,
    costStatus: a.costStatus === 'UNKNOWN' || b.costStatus === 'UNKNOWN' ? 'UNKNOWN' : 'ESTIMATED',
    costSource: a.costSource === 'CATALOG' || b.costSource === 'CATALOG' ? 'CATALOG' : 'NONE',
  };
}

/**
 * The usage of a turn's atoms, each API message counted once (its lines share one key): summed
 * when asked, not with every turn built (a session's turns are built as it falls asleep).
 */
export function usageOfAtoms(atoms: AtomMeta[]): UsageTotals {
  const ledger = new Map<number, MessageUsage>();
  for (const atom of atoms) if (atom.usage) record(ledger, atom.usage);
  return totals(ledger.values());
}
