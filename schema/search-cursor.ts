import { GraphQLError } from 'graphql';

// A search's cursor: for each host, how many of its ranked hits were taken. A kernel reads its
// own entry; a hub keeps one per host, so each host's list goes on from where it stopped.

export type SearchCursor = Record<string, number>;

export const searchCursor = (taken: SearchCursor): string => Buffer.from(JSON.stringify(taken)).toString('base64url');

export function readSearchCursor(after: string | null | undefined): SearchCursor {
  if (!after) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(after, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && Object.values(parsed).every((n) => Number.isSafeInteger(n) && n >= 0)) return parsed as SearchCursor;
  } catch {
    // said below
  }
  throw new GraphQLError('"after" is not a cursor search gave; pass the endCursor of the page before', { extensions: { code: 'BAD_USER_INPUT' } });
}

/** How many of this host's hits the cursor took. */
export const searchOffset = (after: string | null | undefined, host: string): number => readSearchCursor(after)[host] ?? 0;
