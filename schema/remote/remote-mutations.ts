import { NotFoundError, UnavailableError } from '../../spoke/model/source';
import type { Context } from '../builder';

// Clearing goals through a hub: each host clears its own (the same idempotency key to each, so a
// retry makes no second batch anywhere), and the batch id names every host's batch so one
// undoClear puts them all back. Goals of this machine alone keep the plain local batch id.

type GoalKey = { host: string; key: string; anchor: string };

const CLEAR = `mutation($ids: [ID!]!, $key: String!) { clearGoals(ids: $ids, idempotencyKey: $key) { batchId cleared } }`;
const UNDO = `mutation($batchId: ID!) { undoClear(batchId: $batchId) { restored } }`;

/** A kernel's own batch id (a UUID): anything else from a host would smuggle parts into the hub's. */
const OWN_BATCH_ID = /^[\w-]+$/;

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
      if (typeof clearGoals?.batchId !== 'string' || !OWN_BATCH_ID.test(clearGoals.batchId)) {
        throw new UnavailableError(
          `${host} answered with a batch id that is not one (${JSON.stringify(clearGoals?.batchId)}); its goals may be cleared there, and only it can put them back`,
        );
      }
      return { host, ...clearGoals };
    }),
  );
  return { batchId: parts.map((p) => `${p.host}:${p.batchId}`).join(','), cleared: parts.reduce((n, p) => n + p.cleared, 0) };
}

/** The hosts a batch id names and each one's own batch; a plain batch id is this machine's. */
export function batchParts(batchId: string, local: string): { host: string; id: string }[] {
  if (!batchId.includes(':')) return [{ host: local, id: batchId }];
  return batchId.split(',').map((part) => {
    const colon = part.indexOf(':');
    return { host: part.slice(0, colon), id: part.slice(colon + 1) };
  });
}

/** Undoes a batch (its hosts already allowed); null when a host has no such batch. */
export async function undoAcrossHosts(parts: { host: string; id: string }[], ctx: Context): Promise<{ restored: number } | null> {
  const local = ctx.source.kernel().host.name;
  let restored = 0;
  for (const { host, id } of parts) {
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
