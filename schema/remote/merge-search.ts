import { GraphQLNonNull, type GraphQLObjectType, type GraphQLResolveInfo, Kind, print, type SelectionSetNode } from 'graphql';
import type { SearchHit } from '../../spoke/model/search';
import { parseQuery, withoutHosts } from '../../spoke/search/query-language';
import { readSearchCursor, type SearchCursor, searchCursor } from '../search-cursor';
import type { SearchPage } from '../types/search';
import { aliasedField, type RemoteDirectory, type RemoteExecutor, usedFragments, withTypenames } from './delegate';
import { fieldsFor, rewriteResultIds } from './id-rewrite';
import { fitsSchema } from './remote-shape';
import { RemoteValue } from './remote-value';

// `search` on a hub: each host ranks its own lines, and the lists are fused by reciprocal rank
// (score 1 / (60 + rank)), never by comparing scores: bm25 depends on each index's words and
// lengths, so one host's 12.3 says nothing against another's. Every hit lives on one host, so
// the fusion interleaves the lists by rank (ties: the newer line, then the host's name). The
// cursor keeps each host's own place in its list.

/** How long a host may take to answer before its hits are left out and it is named unreachable. */
const HOST_WAIT_MS = 8_000;
const RRF_K = 60;

type Fused = { value: SearchHit | RemoteValue; rank: number; at: number; host: string };
type HostList = { host: string; items: Fused[]; hasNextPage: boolean; complete: boolean };

export async function mergedSearch(
  info: GraphQLResolveInfo,
  args: Record<string, unknown>,
  local: (args: Record<string, unknown>) => Promise<SearchPage>,
  localName: string,
  remotes: RemoteDirectory,
): Promise<SearchPage> {
  const query = String(args.query);
  const named = [...((args.hosts as string[] | null) ?? []), ...parseQuery(query).hosts];
  const wanted = (host: string) => named.length === 0 || named.includes(host);
  const taken = readSearchCursor(args.after as string | null);
  const first = (args.first as number | null) ?? 20;
  const asked = { ...args, query: withoutHosts(query), hosts: null };
  const lists: Promise<HostList | null>[] = [];
  if (wanted(localName)) lists.push(localList(local, asked, localName, taken));
  const unreachable: string[] = [];
  const up = new Map(remotes.up().map((r) => [r.alias, r]));
  const selection = hitSelectionOf(info);
  for (const alias of remotes.aliases().filter(wanted)) {
    const remote = up.get(alias);
    if (!remote) unreachable.push(alias);
    else
      lists.push(
        remoteList(info, remote, selection, asked, taken[alias] ?? 0).catch(() => {
          unreachable.push(alias);
          return null;
        }),
      );
  }
  const answered = (await Promise.all(lists)).filter((l): l is HostList => l !== null);
  const all = answered.flatMap((l) => l.items);
  all.sort((a, b) => 1 / (RRF_K + b.rank) - 1 / (RRF_K + a.rank) || b.at - a.at || (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
  const page = all.slice(0, first);
  const next: SearchCursor = { ...taken };
  for (const hit of page) next[hit.host] = Math.max(next[hit.host] ?? 0, hit.rank);
  const hasNextPage = all.length > page.length || answered.some((l) => l.hasNextPage);
  return {
    hits: page.map((h) => h.value) as SearchHit[],
    hasNextPage,
    nextOffset: 0,
    endCursor: hasNextPage ? searchCursor(next) : null,
    complete: unreachable.length === 0 && answered.every((l) => l.complete),
    unreachableHosts: unreachable.sort(),
  };
}

async function localList(
  local: (args: Record<string, unknown>) => Promise<SearchPage>,
  args: Record<string, unknown>,
  host: string,
  taken: SearchCursor,
): Promise<HostList> {
  const page = await local({ ...args, after: searchCursor({ [host]: taken[host] ?? 0 }) });
  return { host, hasNextPage: page.hasNextPage, complete: page.complete, items: page.hits.map((h) => ({ value: h, rank: h.rank, at: h.t, host })) };
}

interface WirePage {
  hasNextPage: boolean;
  complete: boolean;
  hits: Record<string, unknown>[];
}

async function remoteList(
  info: GraphQLResolveInfo,
  remote: RemoteExecutor,
  selection: SelectionSetNode,
  args: Record<string, unknown>,
  taken: number,
): Promise<HostList> {
  const variables = {
    query: args.query,
    filter: args.filter ?? null,
    first: args.first,
    after: searchCursor({ [remote.remoteName]: taken }),
  };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('too slow')), HOST_WAIT_MS)));
  const data = (await Promise.race([remote.query(searchDocument(selection, info), variables), late]).finally(() => clearTimeout(timer))) as {
    search?: WirePage;
  };
  const page = data.search;
  if (!page || !Array.isArray(page.hits)) throw new Error(`${remote.alias} answered a search with no hits list`);
  const hitType = new GraphQLNonNull(info.schema.getType('SearchHit') as GraphQLObjectType);
  const items: Fused[] = [];
  for (const hit of page.hits) {
    // a hit that does not fit what was asked is left out, not the whole list
    if (!fitsSchema(info.schema, hit, hitType, selection, info.fragments)) continue;
    const rank = Number(hit._loomRank);
    const at = Date.parse(String(hit._loomAt));
    if (!Number.isSafeInteger(rank) || Number.isNaN(at)) continue;
    rewriteResultIds(info.schema, hit, hitType, selection, info.fragments, remote.fromRemote);
    items.push({ value: new RemoteValue(hit, remote.alias), rank, at, host: remote.alias });
  }
  return { host: remote.alias, items, hasNextPage: page.hasNextPage === true, complete: page.complete === true };
}

/** The search each host is asked: the client's hit selection, with what the fusion needs. */
function searchDocument(selection: SelectionSetNode, info: GraphQLResolveInfo): string {
  const fragments = usedFragments(selection, info.fragments)
    .map((f) => print(withTypenames(f)))
    .join('\n');
  return `query($query: String!, $filter: SearchFilter, $first: Int, $after: String) {
    search(query: $query, filter: $filter, first: $first, after: $after) { hasNextPage complete hits ${print(selection)} } }
    ${fragments}`;
}

/** Everything the client asked of a hit (under any alias of `hits`), and the fusion's rank and time. */
function hitSelectionOf(info: GraphQLResolveInfo): SelectionSetNode {
  const results = info.schema.getType('SearchResults') as GraphQLObjectType;
  const selections: SelectionSetNode['selections'][number][] = [];
  for (const field of info.fieldNodes) {
    if (!field.selectionSet) continue;
    for (const f of fieldsFor(info.schema, field.selectionSet, results, info.fragments)) {
      if (f.name.value === 'hits' && f.selectionSet) selections.push(...f.selectionSet.selections);
    }
  }
  return withTypenames({ kind: Kind.SELECTION_SET, selections: [...selections, aliasedField('_loomRank', 'rank'), aliasedField('_loomAt', 'at')] });
}
