// Full-text search over every line of every session: what is asked, and what comes back.

/** The part of a line a hit was found in. */
export type SearchField = 'TEXT' | 'THINKING' | 'TOOLS' | 'INPUT' | 'OUTPUT';

/** Narrowing beside the words; the query text may say the same (`tool:`, `dir:`, `after:`, `before:`). */
export interface SearchFilter {
  /** the session's working directory, or a directory above it */
  dir?: string | null;
  /** a tool's name: lines that called it or carry its result */
  tool?: string | null;
  /** epoch ms; lines at or after it */
  since?: number | null;
  /** epoch ms; lines before it */
  until?: number | null;
}

export interface SearchRequest {
  query: string;
  filter: SearchFilter;
  /** only these hosts; every host when null */
  hosts: string[] | null;
  first: number;
  /** hits of the same question already taken (the cursor) */
  offset: number;
}

/** One stretch of a snippet; `hit` marks the words the query matched. */
export interface SnippetPart {
  text: string;
  hit: boolean;
}

/**
 * One line that matched. Where it sits on the session's path (its sequence and turn) moves when
 * the session rewinds, so it is looked up only when asked: that wakes the session, which for a
 * long one means reading it again.
 */
export interface SearchHit {
  host: string;
  /** the session the line belongs to */
  key: string;
  uuid: string;
  /** a prompt or tool result (user), or the model's reply, thinking or call (assistant) */
  type: 'user' | 'assistant';
  /** epoch ms; 0 when the line has no time */
  t: number;
  field: SearchField;
  snippet: SnippetPart[];
  /** its place in this host's ranked list, from 1 */
  rank: number;
}

export interface SearchProgress {
  filesDone: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  /** every line of every file known is in the index */
  done: boolean;
}

export interface SearchResult {
  hits: SearchHit[];
  hasNextPage: boolean;
  /** how many of the ranked list the next page starts after */
  nextOffset: number;
  /** false while history is still being indexed: older hits may be missing */
  complete: boolean;
  /** hosts that were asked and did not answer */
  unreachableHosts: string[];
}
