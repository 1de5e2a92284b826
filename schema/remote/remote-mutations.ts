import { NotFoundError } from '../../spoke/model/source';
import type { Context } from '../builder';

// Clearing goals through a hub: each host clears its own (the same idempotency key to each, so a
// retry makes no second batch anywhere), and the batch id names every host's batch so one
// undoClear puts them all back. Goals of this machine alone keep the plain local batch id.

type GoalKey = { host: string; key: string; anchor: string };

const CLEAR = `mutation($ids: [ID!]!, $key: String!) { clearGoals(ids: $ids, idempotencyKey: $key) { batchId cleared } }`;
const UNDO = `mutation($batchId: ID!) { undoClear(batchId: $batchId) { restored } }`;

export async function clearAcrossHosts(goals: GoalKey[], idempotencyKey: string, ctx: Context): Promise<{ batchId: string; cleared: number }> {
  const local = ctx.source.kernel().host.name;
  const byHost = new Map<string, GoalKey[]>();
  for (const goal of goals) byHost.set(goal.host, [...(byHost.get(goal.host) ?? []), goal]);
  if (byHost.size === 1 && byHost.has(local)) return ctx.source.clearGoals(goals, idempotencyKey);
  const parts = await Promise.all(
    [...byHost].map(async ([host, mine]) => {
      if (host === local) return { host, ...(await ctx.source.clearGoals(mine, idempotencyKey)) };
      const remote = ctx.remotes.get(host);
      if (!remote) throw new NotFoundError(`no host "${host}": see the hosts query`);
      const ids = mine.map((g) => remote.toRemote(`${g.host}:${g.key}/${g.anchor}`));
      const { clearGoals } = (await remote.query(CLEAR, { ids, key: idempotencyKey })) as { clearGoals: { batchId: string; cleared: number } };
      return { host, ...clearGoals };
    }),
  );
  return { batchId: parts.map((p) => `${p.host}:${p.batchId}`).join(','), cleared: parts.reduce((n, p) => n + p.cleared, 0) };
}

/** Undoes a batch; null when this machine has no such batch (a hub batch names its hosts). */
export async function undoAcrossHosts(batchId: string, ctx: Context): Promise<{ restored: number } | null> {
  if (!batchId.includes(':')) return ctx.source.undoClear(batchId);
  const local = ctx.source.kernel().host.name;
  let restored = 0;
  for (const part of batchId.split(',')) {
    const host = part.slice(0, part.indexOf(':'));
    const id = part.slice(host.length + 1);
    if (host === local) {
      const undone = await ctx.source.undoClear(id);
      if (!undone) return null;
      restored += undone.restored;
      continue;
    }
    const remote = ctx.remotes.get(host);
    if (!remote) return null;
    const { undoClear } = (await remote.query(UNDO, { batchId: id })) as { undoClear: { restored: number } };
    restored += undoClear.restored;
  }
  return { restored };
}
