import { useEffect, useState } from 'react';
import { mutate, query } from '../lib/gql';
import { AWAY, SET_AWAY } from './queries';

// "I'm away from this machine": while on, a subagent's permission prompt waits for an answer
// from here too (the main session's always does). The same switch as `loom away on|off`.

export function AwaySwitch() {
  const [on, setOn] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    query(AWAY).then(
      ({ away }) => setOn(away.on),
      (err: Error) => setError(err.message),
    );
  }, []);
  const change = (next: boolean) => {
    setError(null);
    mutate(SET_AWAY, { on: next }).then(
      ({ setAway }) => setOn(setAway.on),
      (err: Error) => setError(err.message),
    );
  };
  return (
    <label className="away-switch" title="While away, a subagent's permission prompt waits for an answer from this page too">
      <input type="checkbox" checked={on ?? false} disabled={on === null} onChange={(e) => change(e.target.checked)} />
      Away from this machine
      {error && <span className="error"> {error}</span>}
    </label>
  );
}
