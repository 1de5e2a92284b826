import type { SearchFilter, SearchHit, SearchRequest, SearchResult } from './model/search';
import { BadInputError } from './model/source';
import type { AtomMeta, Turn } from './model/types';
import { parseQuery } from './search/query-language';
import type { IndexHit, SearchIndex } from './search/search-index';

// A search of this kernel's sessions: the index finds lines, and each line is placed in the
// session, turn and sequence it has now (those move when a session rewinds, so they are never
// stored). A line no session holds any more (its file read again differently) is left out.

export interface HitPlaces {
  host: string;
  /** the sessions with lines in a transcript file, the file's own first */
  sessionsOfFile(path: string): string[];
  atom(key: string, uuid: string): Promise<{ atom: AtomMeta; rewound: boolean } | null>;
  turns(key: string): Promise<Turn[]>;
}

/** How deep a search pages: past this, narrow the question. */
export const MAX_SEARCH_OFFSET = 1000;

export async function searchSessions(index: SearchIndex, request: SearchRequest, places: HitPlaces): Promise<SearchResult> {
  const q = parseQuery(request.query);
  if (q.phrases.length === 0 && !q.tool && !request.filter.tool) throw new BadInputError('type a word to search for (or tool:Name)');
  if (request.offset > MAX_SEARCH_OFFSET) throw new BadInputError(`a search pages at most ${MAX_SEARCH_OFFSET} hits deep; add words or filters to narrow it`);
  const complete = index.progress.done;
  const hosts = [...(request.hosts ?? []), ...q.hosts];
  if (hosts.length > 0 && !hosts.includes(places.host)) return { hits: [], hasNextPage: false, nextOffset: request.offset, complete, unreachableHosts: [] };
  const filter: SearchFilter = {
    tool: request.filter.tool ?? q.tool,
    dir: request.filter.dir ?? q.dir,
    since: request.filter.since ?? q.after,
    until: request.filter.until ?? q.before,
  };
  const found = index.find(q, filter, request.first, request.offset);
  const snippets = await index.snippets(found.hits, q);
  const turnsOf = new Map<string, Promise<Turn[]>>();
  const hits: SearchHit[] = [];
  for (const [i, hit] of found.hits.entries()) {
    const snippet = snippets[i];
    const placed = snippet && (await place(hit, places, turnsOf));
    if (placed) hits.push({ ...placed, host: places.host, field: snippet.field, snippet: snippet.parts, rank: request.offset + i + 1 });
  }
  return { hits, hasNextPage: found.more, nextOffset: request.offset + found.hits.length, complete, unreachableHosts: [] };
}

async function place(hit: IndexHit, places: HitPlaces, turnsOf: Map<string, Promise<Turn[]>>) {
  for (const key of places.sessionsOfFile(hit.path)) {
    const found = await places.atom(key, hit.uuid).catch(() => null);
    if (!found) continue;
    if (found.rewound) return { key, atom: found.atom, rewound: true, turn: null };
    const turns = turnsOf.get(key) ?? places.turns(key);
    turnsOf.set(key, turns);
    const turn = (await turns).find((t) => t.atoms.some((a) => a.uuid === hit.uuid)) ?? null;
    return { key, atom: found.atom, rewound: false, turn };
  }
  return null;
}
