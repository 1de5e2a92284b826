import type { UsageRow } from '../../spoke/model/usage';
import { addTotals } from '../../spoke/usage/usage';
import type { RemoteDirectory, RemoteExecutor } from './delegate';

// `usage` on a hub: every host that is up gives its rows for the same question, read back into
// the kernel's own row shape; rows with the same key (a day, a model) are added up, and keys
// naming a host or a session carry the hub's alias for it. Each API message lives on one machine,
// so adding never counts one twice.

const ROWS = `query($since: String, $until: String, $groupBy: UsageGroup, $timeZone: String) {
  usage(since: $since, until: $until, groupBy: $groupBy, timeZone: $timeZone) {
    key inputTokens outputTokens cacheCreationTokens cacheCreation5mTokens cacheCreation1hTokens cacheReadTokens cost costStatus costSource } }`;

interface WireRow {
  key: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheCreation5mTokens: number;
  cacheCreation1hTokens: number;
  cacheReadTokens: number;
  cost: number | null;
  costStatus: UsageRow['costStatus'];
  costSource: UsageRow['costSource'];
}

export async function mergedUsage(args: Record<string, unknown>, mine: UsageRow[], remotes: RemoteDirectory): Promise<UsageRow[]> {
  const byKey = new Map(mine.map((row) => [row.key, row]));
  const answers = await Promise.allSettled(
    remotes.up().map(async (remote) => {
      const { usage } = (await remote.query(ROWS, args)) as { usage: WireRow[] };
      const name = keyNamer(args.groupBy, remote);
      return usage.map((r) => rowOf(r, name));
    }),
  );
  for (const answer of answers) {
    if (answer.status !== 'fulfilled') continue; // a host that fails mid-query is left out; its status says why
    for (const row of answer.value) {
      const seen = byKey.get(row.key);
      byKey.set(row.key, seen ? { key: row.key, ...addTotals(seen, row) } : row);
    }
  }
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/**
 * A remote's row key as the hub names it: a host or a session key is the remote's own, whatever
 * it says (a row keyed by another host would add to that host's figures); a day or a model is
 * shared by every host.
 */
function keyNamer(groupBy: unknown, remote: RemoteExecutor): (key: string) => string {
  if (groupBy === 'HOST') return () => remote.alias;
  if (groupBy === 'SESSION') return remote.fromRemote;
  return (key) => key;
}

function rowOf(r: WireRow, rename: (id: string) => string): UsageRow {
  return {
    key: rename(r.key),
    input: r.inputTokens,
    output: r.outputTokens,
    cacheWrite: r.cacheCreationTokens,
    cacheWrite5m: r.cacheCreation5mTokens,
    cacheWrite1h: r.cacheCreation1hTokens,
    cacheRead: r.cacheReadTokens,
    cost: r.cost,
    costStatus: r.costStatus,
    costSource: r.costSource,
  };
}
