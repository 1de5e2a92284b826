import { GraphQLNonNull, type GraphQLObjectType, type GraphQLResolveInfo, Kind, print, type SelectionSetNode } from 'graphql';
import type { SessionPage } from '../../spoke/model/source';
import type { SessionSummary } from '../../spoke/model/types';
import { aliasedField, MisshapenAnswerError, type RemoteDirectory, type RemoteExecutor, usedFragments, withTypenames } from './delegate';
import { fieldsFor, rewriteResultIds } from './id-rewrite';
import { askEveryHost } from './last-seen';
import { fitsSchema } from './remote-shape';
import { RemoteValue } from './remote-value';

// `sessions` on a hub: one list over every host, most recently active first, paged with one
// cursor that holds each host's own. Each remote is asked for a page with the client's node
// selection (plus what the merge needs); the pages are merged and cut to `first`. A host that is
// down keeps its sessions in the list as they were last seen (its Host says DOWN and since when),
// so a dashboard marks them stale instead of losing them.

/** One session of one host's page; `node` makes what the hub serves, for the few taken only. */
type Item = { node: () => SessionSummary | RemoteValue; updatedAt: number; host: string; cursor: string };

interface Cursors {
  [host: string]: string | null;
}

const encode = (c: Cursors): string => Buffer.from(JSON.stringify(c)).toString('base64url');
function decode(after: string | null): Cursors {
  if (!after) return {};
  try {
    const parsed = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch {
    return {};
  }
}

type RemotePage = { items: Item[]; totalCount: number; hasNextPage: boolean };

type WireEdge = { cursor: string; node: Record<string, unknown> };
type WirePage = { totalCount: number; pageInfo: { hasNextPage: boolean }; edges: WireEdge[] };

/**
 * The sessions of each page a host sent that fit what was asked, with the time they sort by,
 * sorted out once per page (a kept page is read again and again): one that does not fit is left
 * out, not the whole list.
 */
const fitting = new WeakMap<WirePage, (WireEdge & { updatedAt: number })[]>();

export async function mergedSessions(
  info: GraphQLResolveInfo,
  args: { first: number; after: string | null; filter: unknown },
  local: (after: string | null) => SessionPage,
  localName: string,
  remotes: RemoteDirectory,
): Promise<SessionPage> {
  const cursors = decode(args.after);
  const localPage = local(cursors[localName] ?? null);
  const items: Item[] = localPage.sessions.map((s, i) => ({ node: () => s, updatedAt: s.updatedAt, host: localName, cursor: localPage.cursors[i] }));
  let total = localPage.totalCount;
  let more = localPage.hasNextPage;
  const nodeSelection = nodeSelectionOf(info);
  const up = new Map(remotes.up().map((r) => [r.alias, r]));
  // one document for every host, and the question its answers are remembered by
  const document = pageDocument(nodeSelection, info);
  const filter = args.filter ? wireFilter(args.filter as Record<string, unknown>) : null;
  const question = `${document}\n${JSON.stringify([filter, args.first, cursors])}`;
  const pages = await askEveryHost(remotes, 'sessions', question, (alias) =>
    remotePage(info, up.get(alias)!, nodeSelection, document, { filter, first: args.first, after: cursors[alias] ?? null }),
  );
  for (const page of pages) {
    items.push(...page.items);
    total += page.totalCount;
    more ||= page.hasNextPage;
  }
  // ties by host name, compared as plain strings: the same order wherever the hub runs, and cheap
  items.sort((a, b) => b.updatedAt - a.updatedAt || (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  const taken = items.slice(0, args.first);
  let edgeCursors: string[] | undefined;
  return {
    sessions: taken.map((i) => i.node()) as SessionSummary[],
    totalCount: total,
    hasNextPage: more || items.length > taken.length,
    // made only when the client asks for a cursor: most pages are read for their nodes alone
    get cursors() {
      edgeCursors ??= edgeCursorsOf(taken, cursors);
      return edgeCursors;
    },
  };
}

/** Each edge's cursor: every host's own cursor as of that edge. */
function edgeCursorsOf(taken: Item[], before: Cursors): string[] {
  const state = { ...before };
  return taken.map((item) => {
    state[item.host] = item.cursor;
    return encode(state);
  });
}

/** The page query each host is asked: the client's node selection, with what the merge needs. */
function pageDocument(nodeSelection: SelectionSetNode, info: GraphQLResolveInfo): string {
  const fragments = usedFragments(nodeSelection, info.fragments)
    .map((f) => print(withTypenames(f)))
    .join('\n');
  return `query($filter: SessionFilter, $first: Int, $after: String) {
    sessions(filter: $filter, first: $first, after: $after) {
      totalCount pageInfo { hasNextPage } edges { cursor node ${print(nodeSelection)} } } }
    ${fragments}`;
}

async function remotePage(
  info: GraphQLResolveInfo,
  remote: RemoteExecutor,
  nodeSelection: SelectionSetNode,
  document: string,
  variables: { filter: Record<string, unknown> | null; first: number; after: string | null },
): Promise<RemotePage> {
  const data = (await remote.queryLists(document, variables)) as { sessions?: WirePage } | null;
  const page = data?.sessions;
  if (typeof page?.totalCount !== 'number' || typeof page.pageInfo?.hasNextPage !== 'boolean' || !Array.isArray(page.edges))
    throw new MisshapenAnswerError(remote.alias);
  const sessionType = info.schema.getType('Session') as GraphQLObjectType;
  let edges = fitting.get(page);
  if (!edges) {
    const node = new GraphQLNonNull(sessionType);
    // the merge orders by updatedAt: a DateTime given as a number fits the scalar, not the sort
    edges = page.edges
      .filter((e) => typeof e?.cursor === 'string' && fitsSchema(info.schema, e.node, node, nodeSelection, info.fragments))
      .map((e) => ({ ...e, updatedAt: Date.parse(e.node._loomUpdatedAt as string) }))
      .filter((e) => !Number.isNaN(e.updatedAt));
    fitting.set(page, edges);
  }
  // the page may be the hub's kept copy: it is read here, and only the nodes taken are copied
  const served = (node: Record<string, unknown>) => {
    const own = structuredClone(node);
    rewriteResultIds(info.schema, own, sessionType, nodeSelection, info.fragments, remote.fromRemote);
    return new RemoteValue(own, remote.alias);
  };
  return {
    totalCount: page.totalCount,
    hasNextPage: page.pageInfo.hasNextPage,
    items: edges.map((e) => ({ node: () => served(e.node), updatedAt: e.updatedAt, host: remote.alias, cursor: e.cursor })),
  };
}

/** Everything the client asked of a session, under `nodes` or `edges { node }`, and the merge's sort key. */
function nodeSelectionOf(info: GraphQLResolveInfo): SelectionSetNode {
  const connection = info.schema.getType('SessionConnection') as GraphQLObjectType;
  const edge = info.schema.getType('SessionEdge') as GraphQLObjectType;
  const selections: SelectionSetNode['selections'][number][] = [];
  for (const field of info.fieldNodes) {
    if (!field.selectionSet) continue;
    for (const f of fieldsFor(info.schema, field.selectionSet, connection, info.fragments)) {
      if (f.name.value === 'nodes' && f.selectionSet) selections.push(...f.selectionSet.selections);
      if (f.name.value === 'edges' && f.selectionSet) {
        for (const e of fieldsFor(info.schema, f.selectionSet, edge, info.fragments))
          if (e.name.value === 'node' && e.selectionSet) selections.push(...e.selectionSet.selections);
      }
    }
  }
  return withTypenames({ kind: Kind.SELECTION_SET, selections: [...selections, aliasedField('_loomUpdatedAt', 'updatedAt')] });
}

function wireFilter(filter: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(filter)) if (v !== null && v !== undefined) out[k] = v instanceof Date ? v.toISOString() : v;
  return out;
}
