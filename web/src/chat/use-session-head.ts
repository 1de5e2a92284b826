import { useEffect, useState } from 'react';
import { query } from '../lib/gql';
import { SESSION_HEAD } from './queries';
import type { SessionHead } from './types';

export interface HeadState {
  head: SessionHead | null;
  loaded: boolean;
  error: string | null;
}

/**
 * The session's name, place, subagents and turns. Read again whenever `refresh` changes (the
 * pane passes the newest prompt it holds, so a new turn shows up in the table of contents);
 * what was shown stays until the new answer arrives.
 */
export function useSessionHead(sessionId: string, refresh: string): HeadState {
  const [state, setState] = useState<HeadState>({ head: null, loaded: false, error: null });
  useEffect(() => {
    let current = true;
    query(SESSION_HEAD, { id: sessionId }).then(
      ({ session }) => current && setState({ head: session, loaded: true, error: null }),
      (err: Error) => current && setState((s) => ({ ...s, loaded: true, error: err.message })),
    );
    return () => {
      current = false;
    };
  }, [sessionId, refresh]);
  return state;
}
