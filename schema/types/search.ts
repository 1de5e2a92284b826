import type { SearchHit, SearchProgress, SearchResult, SnippetPart } from '../../spoke/model/search';
import { builder } from '../builder';
import { childId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { searchCursor, searchOffset } from '../search-cursor';
import { parseTime } from '../time';
import { AtomRef } from './atom';
import { SessionRef } from './session';
import { TurnRef } from './turn';

// Full-text search over every session of every host (docs/api.md, "Search").

const SearchFieldEnum = builder.enumType('SearchField', {
  description: 'Where in a line the words were found: prompts and replies, thinking, tool names, what a tool was given, what it returned.',
  values: ['TEXT', 'THINKING', 'TOOLS', 'INPUT', 'OUTPUT'] as const,
});

const SnippetPartRef = builder.objectRef<SnippetPart>('SnippetPart').implement({
  description: 'A stretch of a snippet; hit marks the words the search matched.',
  fields: (t) => ({ text: t.exposeString('text'), hit: t.exposeBoolean('hit') }),
});

const SearchHitRef = builder.objectRef<SearchHit>('SearchHit').implement({
  description: 'One line that matched, placed where it is now: its session, turn and atom.',
  fields: (t) => ({
    id: t.id({ description: "the atom's id", resolve: (h) => childId(h.host, h.key, h.atom.uuid) }),
    rank: t.exposeInt('rank', { description: "its place in its own host's ranked list, from 1 (a hub's merge keeps each host's order)" }),
    session: t.field({
      type: SessionRef,
      nullable: true,
      description: 'null when the session went away since',
      resolve: (h, _, { source }) => source.session(h.host, h.key),
    }),
    turn: t.field({
      type: TurnRef,
      nullable: true,
      description: 'null when the line is on a branch a rewind took off the path',
      resolve: (h) => (h.turn ? { host: h.host, key: h.key, turn: h.turn } : null),
    }),
    atom: t.field({ type: AtomRef, resolve: (h) => ({ host: h.host, key: h.key, atom: h.atom, rewound: h.rewound }) }),
    sequence: t.int({
      nullable: true,
      description: "the atom's place on the active path; null when rewound",
      resolve: (h) => (h.rewound ? null : h.atom.sequence),
    }),
    at: t.field({ type: 'DateTime', resolve: (h) => h.atom.t }),
    rewound: t.exposeBoolean('rewound'),
    field: t.field({ type: SearchFieldEnum, resolve: (h) => h.field }),
    snippet: t.field({ type: [SnippetPartRef], description: 'a few words around the best match, from the transcript as it is now', resolve: (h) => h.snippet }),
  }),
});

export const SearchProgressRef = builder.objectRef<SearchProgress>('SearchIndexing').implement({
  description: "The search index's background pass over history already there when it started.",
  fields: (t) => ({
    filesDone: t.exposeInt('filesDone'),
    filesTotal: t.exposeInt('filesTotal'),
    bytesDone: t.exposeFloat('bytesDone'),
    bytesTotal: t.exposeFloat('bytesTotal'),
    done: t.exposeBoolean('done'),
  }),
});

export interface SearchPage extends SearchResult {
  endCursor: string | null;
}

const SearchResultsRef = builder.objectRef<SearchPage>('SearchResults').implement({
  fields: (t) => ({
    hits: t.field({ type: [SearchHitRef], resolve: (r) => r.hits }),
    endCursor: t.exposeString('endCursor', { nullable: true, description: 'pass as after for the next page' }),
    hasNextPage: t.exposeBoolean('hasNextPage'),
    complete: t.exposeBoolean('complete', { description: 'false while some history is still being indexed, or a host did not answer: hits may be missing' }),
    unreachableHosts: t.exposeStringList('unreachableHosts', { description: 'hosts asked that did not answer' }),
  }),
});

const SearchFilterInput = builder.inputType('SearchFilter', {
  description: 'Narrowing beside the words; the query text can say the same with tool:, dir:, after: and before:.',
  fields: (t) => ({
    tool: t.string({ description: 'lines that called this tool or carry its result' }),
    dir: t.string({ description: "a session's working directory, or a directory above it" }),
    since: t.string({ description: 'RFC 3339; lines at or after it' }),
    until: t.string({ description: 'RFC 3339; lines before it' }),
  }),
});

/** The most hits one page gives. */
const MAX_FIRST = 100;

builder.queryField('search', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'merged', rule: 'search' }),
    type: SearchResultsRef,
    description: 'Lines of every session that match, best first (bm25), with a snippet and the place of each hit.',
    args: {
      query: t.arg.string({ required: true, description: 'words, "a phrase", prefix*, tool:Bash, dir:/path, host:name, after:2026-11-01, before:2026-11-20' }),
      hosts: t.arg.stringList({ description: 'only these hosts' }),
      filter: t.arg({ type: SearchFilterInput }),
      first: t.arg.int({ defaultValue: 20 }),
      after: t.arg.string({ description: 'endCursor of the page before' }),
    },
    resolve: async (_, args, { source }) => {
      const host = source.kernel().host.name;
      const first = Math.max(1, Math.min(args.first ?? 20, MAX_FIRST));
      const offset = searchOffset(args.after, host);
      const result = await source.search({
        query: args.query,
        hosts: args.hosts ?? null,
        filter: {
          tool: args.filter?.tool ?? null,
          dir: args.filter?.dir ?? null,
          since: parseTime('filter.since', args.filter?.since),
          until: parseTime('filter.until', args.filter?.until),
        },
        first,
        offset,
      });
      return { ...result, endCursor: result.hasNextPage ? searchCursor({ [host]: result.nextOffset }) : null };
    },
  }),
);
