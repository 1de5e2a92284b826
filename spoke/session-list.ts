import type { SessionFilter } from './model/source';
import { BadInputError } from './model/source';

// Filtering and Relay-style paging of sessions, newest activity first. A cursor names a
// position in that order (updatedAt, key), so a page boundary survives sessions moving.

export const MAX_PAGE = 500;

/**
 * What filtering and ordering read of a session: cheap for every session, where its whole
 * summary is worth building only for the few on the page.
 */
export interface Listed {
  key: string;
  updatedAt: number;
  dir: string;
  name(): string;
}

export interface ListedPage<T extends Listed> {
  sessions: T[];
  totalCount: number;
  hasNextPage: boolean;
  cursors: string[];
}

export function pageSessions<T extends Listed>(all: T[], filter: SessionFilter, first: number, after: string | null): ListedPage<T> {
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE) {
    throw new BadInputError(`"first" must be a whole number from 0 to ${MAX_PAGE}, got ${first}`);
  }
  const matching = all.filter((s) => matches(s, filter)).sort(newestFirst);
  let start = 0;
  if (after) {
    const [updatedAt, key] = decodeCursor(after);
    start = matching.findIndex((s) => newestFirst(s, { updatedAt, key }) > 0);
    if (start === -1) start = matching.length;
  }
  const sessions = matching.slice(start, start + first);
  return {
    sessions,
    totalCount: matching.length,
    hasNextPage: start + first < matching.length,
    cursors: sessions.map(encodeCursor),
  };
}

function matches(s: Listed, filter: SessionFilter): boolean {
  if (filter.dir && s.dir !== filter.dir && !s.dir.startsWith(filter.dir.replace(/\/?$/, '/'))) return false;
  if (filter.text && !s.name().toLowerCase().includes(filter.text.toLowerCase())) return false;
  if (filter.updatedSince != null && s.updatedAt < filter.updatedSince) return false;
  return true;
}

const newestFirst = (a: Pick<Listed, 'updatedAt' | 'key'>, b: Pick<Listed, 'updatedAt' | 'key'>): number =>
  b.updatedAt - a.updatedAt || a.key.localeCompare(b.key);

const encodeCursor = (s: Listed): string => Buffer.from(`${s.updatedAt}:${s.key}`).toString('base64url');

function decodeCursor(cursor: string): [number, string] {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  const updatedAt = Number(text.slice(0, colon));
  if (colon < 1 || !Number.isFinite(updatedAt)) throw new BadInputError(`"after" is not a cursor this API gave out: ${cursor}`);
  return [updatedAt, text.slice(colon + 1)];
}
