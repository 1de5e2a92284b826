import type { SessionFilter, SessionPage } from './model/source';
import { BadInputError } from './model/source';
import type { SessionSummary } from './model/types';

// Filtering and Relay-style paging of sessions, newest activity first. A cursor names a
// position in that order (updatedAt, key), so a page boundary survives sessions moving.

export const MAX_PAGE = 500;

export function pageSessions(all: SessionSummary[], filter: SessionFilter, first: number, after: string | null): SessionPage {
  if (!Number.isInteger(first) || first < 0 || first > MAX_PAGE) {
    throw new BadInputError(`"first" must be a whole number from 0 to ${MAX_PAGE}, got ${first}`);
  }
  const matching = all.filter((s) => matches(s, filter)).sort(newestFirst);
  let start = 0;
  if (after) {
    const [updatedAt, key] = decodeCursor(after);
    start = matching.findIndex((s) => newestFirst(s, { updatedAt, key } as SessionSummary) > 0);
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

function matches(s: SessionSummary, filter: SessionFilter): boolean {
  if (filter.dir && s.dir !== filter.dir && !s.dir.startsWith(filter.dir.replace(/\/?$/, '/'))) return false;
  if (filter.text && !s.name.toLowerCase().includes(filter.text.toLowerCase())) return false;
  if (filter.updatedSince != null && s.updatedAt < filter.updatedSince) return false;
  return true;
}

const newestFirst = (a: Pick<SessionSummary, 'updatedAt' | 'key'>, b: Pick<SessionSummary, 'updatedAt' | 'key'>): number =>
  b.updatedAt - a.updatedAt || a.key.localeCompare(b.key);

const encodeCursor = (s: SessionSummary): string => Buffer.from(`${s.updatedAt}:${s.key}`).toString('base64url');

function decodeCursor(cursor: string): [number, string] {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const colon = text.indexOf(':');
  const updatedAt = Number(text.slice(0, colon));
  if (colon < 1 || !Number.isFinite(updatedAt)) throw new BadInputError(`"after" is not a cursor this API gave out: ${cursor}`);
  return [updatedAt, text.slice(colon + 1)];
}
