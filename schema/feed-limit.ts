import { GraphQLError } from 'graphql';

// `feed(completedFirst:)`: how many completed goals an answer keeps, cut on each kernel and again
// after a hub merges its hosts' feeds (each column is newest first, so the cut keeps the newest).

/** The limit asked for, or null for all of them. */
export function completedLimit(value: number | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  if (value < 0) throw new GraphQLError('"completedFirst" must be 0 or more', { extensions: { code: 'BAD_USER_INPUT' } });
  return value;
}

export const keepFirst = <T>(list: T[], limit: number | null): T[] => (limit === null || list.length <= limit ? list : list.slice(0, limit));
