import type { SearchFilter, SearchHit, SearchRequest, SearchResult } from './model/search';
import { BadInputError } from './model/source';
import { parseQuery } from './search/query-language';
import type { IndexHit, SearchIndex } from './search/search-index';

// A search of this kernel's sessions: the index finds lines, each named by the session whose file
// holds it. Only a file that also holds inline subagents' lines (older Claude Code versions) needs
// its sessions awake to tell whose a line is; where a line sits on its path is asked separately.

export interface HitSessions {
  host: string;
  /** the sessions with lines in a transcript file, the file's own first */
  sessionsOfFile(path: string): string[];
  /** whether the session holds this line (waking it) */
  holds(key: string, uuid: string): Promise<boolean>;
}

/** How deep a search pages: past this, narrow the question. */
export const MAX_SEARCH_OFFSET = 1000;

export async function searchSessions(index: SearchIndex, request: SearchRequest, sessions: HitSessions): Promise<SearchResult> {
  const q = parseQuery(request.query);
  if (q.phrases.length === 0 && !q.tool && !request.filter.tool) throw new BadInputError('type a word to search for (or tool:Name)');
  if (request.offset > MAX_SEARCH_OFFSET) throw new BadInputError(`a search pages at most ${MAX_SEARCH_OFFSET} hits deep; add words or filters to narrow it`);
  const complete = index.progress.done;
  const hosts = [...(request.hosts ?? []), ...q.hosts];
  if (hosts.length > 0 && !hosts.includes(sessions.host)) return { hits: [], hasNextPage: false, nextOffset: request.offset, complete, unreachableHosts: [] };
  const filter: SearchFilter = {
    tool: request.filter.tool ?? q.tool,
    dir: request.filter.dir ?? q.dir,
    since: request.filter.since ?? q.after,
    until: request.filter.until ?? q.before,
  };
  const found = index.find(q, filter, request.first, request.offset);
  const snippets = await index.snippets(found.hits, q);
  const hits: SearchHit[] = [];
  for (const [i, hit] of found.hits.entries()) {
    const snippet = snippets[i];
    const key = snippet && (await sessionOf(hit, sessions));
    if (key)
      hits.push({
        host: sessions.host,
        key,
        uuid: hit.uuid,
        type: snippet.type,
        t: hit.t,
        field: snippet.field,
        snippet: snippet.parts,
        rank: request.offset + i + 1,
      });
  }
  return { hits, hasNextPage: found.more, nextOffset: request.offset + found.hits.length, complete, unreachableHosts: [] };
}

async function sessionOf(hit: IndexHit, sessions: HitSessions): Promise<string | null> {
  const keys = sessions.sessionsOfFile(hit.path);
  if (keys.length <= 1) return keys[0] ?? null;
  for (const key of keys) if (await sessions.holds(key, hit.uuid).catch(() => false)) return key;
  return null;
}
