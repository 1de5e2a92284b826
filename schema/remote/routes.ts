import { type ArgumentNode, type GraphQLField, type GraphQLObjectType, type GraphQLResolveInfo, type GraphQLSchema, getNamedType, Kind } from 'graphql';
import type { Feed, SessionPage } from '../../spoke/model/source';
import type { UsageRow } from '../../spoke/model/usage';
import type { Context } from '../builder';
import { completedLimit, keepFirst } from '../feed-limit';
import type { SearchPage } from '../types/search';
import { delegateQuery, delegation, type RemoteExecutor, selectionText } from './delegate';
import { declaredRoute } from './hub-route';
import { fieldsFor } from './id-rewrite';
import { askEveryHost } from './last-seen';
import { mapIterator } from './map-iterator';
import { MergedStream } from './merge-iterators';
import { mergedSearch } from './merge-search';
import { mergedSessions } from './merge-sessions';
import { mergedUsage } from './merge-usage';
import { RemoteValue } from './remote-value';
import { resumableStream } from './resumable-stream';

// Which root fields go where on a hub. A field naming one session, goal or atom goes to the host
// its id names; a list (sessions, the feed) and a change stream merge every host that is up.
// A kernel that links nothing answers everything itself, as before.

type Field = GraphQLField<unknown, Context>;

const MERGES = {
  sessions: mergeSessions,
  feed: mergeFeed,
  timeline: mergeLanes,
  usage: mergeUsage,
  changes: mergeChanges,
  list: mergeList,
  search: mergeSearch,
};

/** Applies the route each root field declares (hub-route.ts). */
export function routeToRemotes(schema: GraphQLSchema): void {
  for (const type of [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!]) {
    for (const field of Object.values(type.getFields()) as Field[]) {
      const route = declaredRoute(type.name, field);
      if (route.kind === 'byHost' && type === schema.getSubscriptionType()) routeStream(field, route.arg, route.resumable === true);
      else if (route.kind === 'byHost') routeByHost(field, route.arg);
      else if (route.kind === 'merged') MERGES[route.rule](field);
    }
  }
}

const hostOf = (id: unknown): string => String(id).split(':')[0];

function routeByHost(field: Field, arg: string): void {
  const local = field.resolve!;
  field.resolve = (parent, args, ctx, info) => {
    const remote = ctx.remotes.get(hostOf(args[arg]));
    return remote ? delegateQuery(info, remote) : local(parent, args, ctx, info);
  };
}

function mergeSessions(field: Field): void {
  const local = field.resolve!;
  field.resolve = (parent, args, ctx, info) => {
    if (!ctx.remotes.linked()) return local(parent, args, ctx, info);
    const localPage = (after: string | null) => local(parent, { ...args, after }, ctx, info) as SessionPage;
    const page = { first: (args.first as number) ?? 50, after: (args.after as string) ?? null, filter: args.filter };
    return mergedSessions(info, page, localPage, ctx.source.kernel().host.name, ctx.remotes);
  };
}

const COLUMNS = ['working', 'blocked', 'completed'] as const;

/** The feed of every host: each column merged, most recently updated first. */
function mergeFeed(field: Field): void {
  const local = field.resolve!;
  field.resolve = async (parent, args, ctx, info) => {
    const mine = (await local(parent, args, ctx, info)) as Feed;
    if (!ctx.remotes.linked()) return mine;
    const wanted = args.hosts as string[] | null;
    const remotes = ctx.remotes.up().filter((r) => !wanted || wanted.includes(r.alias));
    const theirs = await Promise.allSettled(remotes.map((r) => delegateQuery(info, r, ['hosts']) as Promise<RemoteValue>));
    const sortKey = updatedAtKeys(info);
    const merged: Record<string, unknown[]> = {};
    for (const column of COLUMNS) {
      const rows: { value: unknown; at: number }[] = mine[column].map((g) => ({ value: g, at: g.goal.updatedAt }));
      for (const feed of theirs) {
        if (feed.status !== 'fulfilled') continue;
        for (const goal of (feed.value.data[column] as Record<string, unknown>[] | undefined) ?? []) {
          rows.push({ value: new RemoteValue(goal, feed.value.host), at: Date.parse(String(goal[sortKey[column] ?? ''] ?? 0)) || 0 });
        }
      }
      merged[column] = rows.sort((a, b) => b.at - a.at).map((r) => r.value);
    }
    merged.completed = keepFirst(merged.completed, completedLimit(args.completedFirst as number | null | undefined));
    return merged;
  };
}

/** The response key under which each column's goals carry updatedAt, to sort the merge. */
function updatedAtKeys(info: GraphQLResolveInfo): Record<string, string | undefined> {
  const feed = getNamedType(info.returnType) as GraphQLObjectType;
  const goal = info.schema.getType('Goal') as GraphQLObjectType;
  const keys: Record<string, string | undefined> = {};
  for (const node of info.fieldNodes) {
    for (const column of fieldsFor(info.schema, node.selectionSet!, feed, info.fragments)) {
      const at = column.selectionSet && fieldsFor(info.schema, column.selectionSet, goal, info.fragments).find((f) => f.name.value === 'updatedAt');
      if (at) keys[column.name.value] = at.alias?.value ?? 'updatedAt';
    }
  }
  return keys;
}

/** Timeline lanes of every host (a down one's as last seen): each host gives up to `lanes` of its own. */
function mergeLanes(field: Field): void {
  const local = field.resolve!;
  field.resolve = async (parent, args, ctx, info) => {
    const mine = (await local(parent, args, ctx, info)) as unknown[];
    if (!ctx.remotes.linked()) return mine;
    const question = `${selectionText(info.fieldNodes, info.fragments)}\n${JSON.stringify(args)}`;
    const theirs = await askEveryHost(ctx.remotes, 'timeline', question, (alias) => delegateQuery(info, ctx.remotes.get(alias)!) as Promise<unknown[]>);
    return [...mine, ...theirs.flat()];
  };
}

/** A plain list: this machine's items, then every host's that is up (a host that fails adds none). */
function mergeList(field: Field): void {
  const local = field.resolve!;
  field.resolve = async (parent, args, ctx, info) => {
    const mine = (await local(parent, args, ctx, info)) as unknown[];
    if (!ctx.remotes.linked()) return mine;
    const theirs = await Promise.allSettled(ctx.remotes.up().map((remote) => delegateQuery(info, remote) as Promise<unknown[]>));
    return [...mine, ...theirs.flatMap((answer) => (answer.status === 'fulfilled' ? answer.value : []))];
  };
}

/** Usage over every host that is up, rows of the same key added up. */
function mergeUsage(field: Field): void {
  const local = field.resolve!;
  field.resolve = async (parent, args, ctx, info) => {
    const mine = (await local(parent, args, ctx, info)) as UsageRow[];
    return ctx.remotes.linked() ? mergedUsage(args, mine, ctx.remotes) : mine;
  };
}

/** Search over every host named (all by default), each host's ranked list fused by rank (merge-search.ts). */
function mergeSearch(field: Field): void {
  const local = field.resolve!;
  field.resolve = (parent, args, ctx, info) => {
    if (!ctx.remotes.linked()) return local(parent, args, ctx, info);
    const localPage = (asked: Record<string, unknown>) => local(parent, asked, ctx, info) as Promise<SearchPage>;
    return mergedSearch(info, args, localPage, ctx.source.kernel().host.name, ctx.remotes);
  };
}

/** How long after a host ended its change stream, while staying up, the hub asks for it again. */
const REJOIN_MS = 2_000;
/**
 * How far before a gap a host is asked to catch up from: changes it made before the hub saw the
 * link drop, and a clock that differs from the hub's.
 */
const CATCH_UP_MARGIN_MS = 5 * 60_000;

/**
 * A change stream over every host: the local one, and each remote's as it comes up, and again
 * if the host ends it while it stays up (an error there, or more events than the reader took).
 * A host that joins late catches up (`since`) from when this subscriber may lack its changes, so
 * an outage, a new link (the first one too) or a rejoin leaves no gap.
 */
function mergeChanges(field: Field): void {
  const local = field.subscribe!;
  field.subscribe = async (parent, args, ctx, info) => {
    const mine = (await local(parent, args, ctx, info)) as AsyncIterableIterator<unknown>;
    // not linked(): a host linked while the stream is open joins it too
    if (!ctx.remotes.mayLink()) return mine;
    const gaps = changeGaps(ctx, args.since instanceof Date ? args.since.getTime() : null);
    const subscribed = new Set<string>();
    const hostChanges = ctx.remotes.changes();
    let open = true;
    const merged = new MergedStream<unknown>(() => {
      open = false;
      void hostChanges.return?.();
    });
    merged.add(mine);
    const join = () => {
      if (!open) return;
      for (const remote of ctx.remotes.up()) {
        if (subscribed.has(remote.alias)) continue;
        subscribed.add(remote.alias);
        const since = gaps.join(remote);
        const { document, variables, adopt } = delegation(info, remote, [], since === null ? [] : [sinceArgument(since)]);
        merged.add(mapIterator(remote.subscribe(document, variables), adopt), () => {
          subscribed.delete(remote.alias);
          gaps.lost(remote.alias);
          setTimeout(join, REJOIN_MS).unref();
        });
      }
    };
    join();
    void (async () => {
      for await (const _ of hostChanges) join();
    })();
    return merged;
  };
}

/** A catch-up whose stream ended sooner than this after it was asked for may not have arrived whole. */
const CATCH_UP_SETTLED_MS = 30_000;
/** How often in a row such a catch-up is asked for again whole: a reader too slow for it would loop. */
const CATCH_UP_RETRIES = 2;

interface HostGap {
  /** where its next stream catches up from (null: nowhere, the subscriber lacks nothing) */
  from: number | null;
  /** when its last stream was asked for, and of which machine */
  joined: number;
  machine: string;
  retries: number;
}

/**
 * Since when one subscriber may lack each host's changes. A host up as it subscribes: from its
 * own `since`, if any. Any other (down then, never seen, linked later, or an alias now naming
 * another machine): from the start, since the subscriber's lists may hold any older part of it,
 * or none. A host whose stream ended: from a little before then, or, when it ended before its
 * catch-up can have arrived whole, from where that catch-up started.
 */
function changeGaps(ctx: Context, asked: number | null) {
  const gaps = new Map<string, HostGap>(ctx.remotes.up().map((r) => [r.alias, { from: asked, joined: 0, machine: r.remoteName, retries: 0 }]));
  return {
    join(remote: RemoteExecutor): number | null {
      const gap = gaps.get(remote.alias);
      const from = gap && gap.machine === remote.remoteName ? gap.from : 0;
      gaps.set(remote.alias, { from, joined: Date.now(), machine: remote.remoteName, retries: gap?.retries ?? 0 });
      return from;
    },
    lost(alias: string): void {
      const gap = gaps.get(alias)!;
      const recent = Date.now() - CATCH_UP_MARGIN_MS;
      const early = Date.now() - gap.joined < CATCH_UP_SETTLED_MS && gap.retries < CATCH_UP_RETRIES;
      gaps.set(alias, { ...gap, from: early ? Math.min(gap.from ?? recent, recent) : recent, retries: early ? gap.retries + 1 : 0 });
    },
  };
}

const sinceArgument = (since: number): ArgumentNode => ({
  kind: Kind.ARGUMENT,
  name: { kind: Kind.NAME, value: 'since' },
  value: { kind: Kind.STRING, value: new Date(Math.max(0, since)).toISOString() },
});

/** A remote session's stream, resumed from its cursor across outages of the host. */
function routeStream(field: Field, arg: string, resumable: boolean): void {
  const local = field.subscribe!;
  field.subscribe = (parent, args, ctx, info) => {
    const alias = hostOf(args[arg]);
    const remote = ctx.remotes.get(alias);
    if (!remote) return local(parent, args, ctx, info);
    if (resumable) return resumableStream(info, args, alias, ctx.remotes);
    // each frame is whole (a list as it is now): a client that subscribes again loses nothing
    const { document, variables, adopt } = delegation(info, remote);
    return mapIterator(remote.subscribe(document, variables), adopt);
  };
}
