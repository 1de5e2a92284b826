import type { SearchHit, SearchProgress, SearchResult, SnippetPart } from '../../spoke/model/search';
import type { Source } from '../../spoke/model/source';
import type { AtomMeta } from '../../spoke/model/types';
import { builder } from '../builder';
import { childId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { searchCursor, searchOffset } from '../search-cursor';
import { parseTime } from '../time';
import { AtomRef, AtomTypeEnum } from './atom';
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

/** Where a hit sits on its session's path now, looked up once per hit and only when asked. */
const placed = new WeakMap<SearchHit, Promise<{ atom: AtomMeta; rewound: boolean } | null>>();
function placeOf(hit: SearchHit, source: Source) {
  let place = placed.get(hit);
  if (!place) {
    place = source.atom(hit.host, hit.key, hit.uuid).catch(() => null);
    placed.set(hit, place);
  }
  return place;
}

const SearchHitRef = builder.objectRef<SearchHit>('SearchHit').implement({
  description:
    'One line that matched. Its atom, sequence and turn are looked up when asked: that reads a sleeping session again, so a list of hits that does not need them is faster without.',
  fields: (t) => ({
    id: t.id({ description: "the atom's id", resolve: (h) => childId(h.host, h.key, h.uuid) }),
    rank: t.exposeInt('rank', { description: "its place in its own host's ranked list, from 1 (a hub's merge keeps each host's order)" }),
    session: t.field({
      type: SessionRef,
      nullable: true,
      description: 'null when the session went away since',
      resolve: (h, _, { source }) => source.session(h.host, h.key),
    }),
    at: t.field({ type: 'DateTime', resolve: (h) => h.t }),
    type: t.field({ type: AtomTypeEnum, description: 'USER (a prompt, a tool result) or ASSISTANT (a reply, thinking, a call)', resolve: (h) => h.type }),
    field: t.field({ type: SearchFieldEnum, resolve: (h) => h.field }),
    snippet: t.field({ type: [SnippetPartRef], description: 'a few words around the best match, from the transcript as it is now', resolve: (h) => h.snippet }),
    atom: t.field({
      type: AtomRef,
      nullable: true,
      description: 'null when the session no longer holds the line',
      resolve: async (h, _, { source }) => {
        const place = await placeOf(h, source);
        return place && { host: h.host, key: h.key, atom: place.atom, rewound: place.rewound };
      },
    }),
    sequence: t.int({
      nullable: true,
      description: "the line's place on the active path; null when a rewind took it off the path",
      resolve: async (h, _, { source }) => {
        const place = await placeOf(h, source);
        return place && !place.rewound ? place.atom.sequence : null;
      },
    }),
    rewound: t.boolean({
      description: 'the line is on a branch a rewind took off the path',
      resolve: async (h, _, { source }) => (await placeOf(h, source))?.rewound === true,
    }),
    turn: t.field({
      type: TurnRef,
      nullable: true,
      description: 'the turn holding the line; null when it is off the path',
      resolve: async (h, _, { source }) => {
        const place = await placeOf(h, source);
        if (!place || place.rewound) return null;
        const turn = (await source.turns(h.host, h.key)).find((t) => t.atoms.some((a) => a.uuid === h.uuid));
        return turn ? { host: h.host, key: h.key, turn } : null;
      },
    }),
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
