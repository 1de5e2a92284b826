import { useCallback, useEffect, useRef, useState } from 'react';
import { query } from '../lib/gql';
import type { ResultOf } from '../lib/graphql';
import { SEARCH } from './queries';

export type SearchHit = ResultOf<typeof SEARCH>['search']['hits'][number];

export interface SearchState {
  /** the words these results answer ('' before any search) */
  query: string;
  hits: readonly SearchHit[];
  endCursor: string | null;
  hasNextPage: boolean;
  complete: boolean;
  unreachableHosts: readonly string[];
  /** the kernel's one sentence when it refused the query */
  error: string | null;
  /** a request is out (the first page or the next) */
  loading: boolean;
}

const IDLE: SearchState = { query: '', hits: [], endCursor: null, hasNextPage: false, complete: true, unreachableHosts: [], error: null, loading: false };
/** how long typing must pause before the words are sent */
export const DEBOUNCE_MS = 200;
const PAGE = 20;

/**
 * Results for `text`, asked DEBOUNCE_MS after the last keystroke. Only the newest request's
 * answer is kept: one that lands after the words changed is dropped. `more()` appends the next
 * page. Until the answer for the words typed lands, the state still names the words it answers.
 */
export function useSearch(text: string): SearchState & { more: () => void } {
  const [state, setState] = useState<SearchState>(IDLE);
  /** bumped by every request: an answer carrying an older number is stale */
  const latest = useRef(0);

  const ask = useCallback(async (words: string, after: string | null) => {
    const asked = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    try {
      const { search } = await query(SEARCH, { query: words, first: PAGE, after });
      if (asked !== latest.current) return;
      setState((s) => ({
        query: words,
        hits: after ? [...s.hits, ...search.hits] : search.hits,
        endCursor: search.endCursor ?? null,
        hasNextPage: search.hasNextPage,
        complete: search.complete,
        unreachableHosts: search.unreachableHosts,
        error: null,
        loading: false,
      }));
    } catch (err) {
      if (asked !== latest.current) return;
      const error = (err as Error).message;
      // a next page that failed keeps the hits already shown
      setState((s) => (after ? { ...s, error, loading: false } : { ...IDLE, query: words, error }));
    }
  }, []);

  const words = text.trim();
  useEffect(() => {
    latest.current++; // what is out answers words no longer typed
    if (words === '') {
      setState(IDLE);
      return;
    }
    const timer = setTimeout(() => void ask(words, null), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [words, ask]);

  const more = useCallback(() => {
    if (state.endCursor && !state.loading) void ask(state.query, state.endCursor);
  }, [ask, state.endCursor, state.loading, state.query]);

  return { ...state, more };
}
