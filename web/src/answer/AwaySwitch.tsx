import { useEffect, useState } from 'react';
import { mutate, query } from '../lib/gql';
import { useHosts } from '../network/hosts';
import { AWAY, SET_AWAY } from './queries';

// "Away": while on, a subagent's permission prompt on that machine waits for an answer from here
// too (the main session's always does). The same switch as `loom away on|off` there. One switch
// for this machine, and one for each linked host that is up and takes this hub's actions.

export function AwaySwitches() {
  const { hosts } = useHosts();
  const linked = hosts.filter((h) => !h.local && h.status?.state === 'UP' && h.trust !== 'ISOLATED');
  return (
    <>
      <AwaySwitch host={null} label={linked.length === 0 ? 'Away from this machine' : `Away from ${hosts.find((h) => h.local)?.name ?? 'this machine'}`} />
      {linked.map((h) => (
        <AwaySwitch key={h.name} host={h.name} label={`Away from ${h.name}`} />
      ))}
    </>
  );
}

function AwaySwitch({ host, label }: { host: string | null; label: string }) {
  const [on, setOn] = useState<boolean | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    query(AWAY, { host }).then(
      ({ away }) => setOn(away.on),
      (err: Error) => setError(err.message),
    );
  }, [host]);
  const change = (next: boolean) => {
    setError(null);
    mutate(SET_AWAY, { on: next, host }).then(
      ({ setAway }) => setOn(setAway.on),
      (err: Error) => setError(err.message),
    );
  };
  return (
    <label className="away-switch" data-host={host ?? ''} title="While away, a subagent's permission prompt there waits for an answer from this page too">
      <input type="checkbox" checked={on ?? false} disabled={on === null} onChange={(e) => change(e.target.checked)} />
      {label}
      {error && <span className="error"> {error}</span>}
    </label>
  );
}
