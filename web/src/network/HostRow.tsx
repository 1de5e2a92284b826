import { useEffect, useState } from 'react';
import { age } from '../lib/age';
import { linkFailed, stateLine, TRUST_HINT, TRUST_LABEL } from './describe';
import { type Host, setHostTrust, type Trust, unlinkHost } from './hosts';

interface Props {
  host: Host;
  /** for the "for 5m" age, renewed while the popover is open */
  now: number;
}

/** One host: who it is, how it is, and (for a linked host) its trust tier and the way to unlink it. */
export function HostRow({ host, now }: Props) {
  const status = host.status;
  const state = status?.state ?? 'UP';
  const failed = linkFailed(host);
  return (
    <li className="net-host" data-host={host.name} data-state={state} data-failed={failed || undefined}>
      <div className="net-host-head">
        <span className={`net-dot net-dot-${state.toLowerCase()}`} aria-hidden="true" />
        <span className="net-name">{host.name}</span>
        {host.local ? <span className="net-local">this machine</span> : <span className="net-target">{host.target}</span>}
      </div>
      {status && (
        <div className="net-status">
          <span className="net-state" data-reason={status.reason ?? undefined}>
            {stateLine(host)}
          </span>
          <span className="net-since" title={`since ${new Date(status.since).toLocaleString()}`}>
            for {age(status.since, now)}
          </span>
          {status.state !== 'UP' && status.lastSeen && <span className="net-since">last seen {age(status.lastSeen, now)} ago</span>}
          {status.state === 'DOWN' && status.message && <p className="net-message">{status.message}</p>}
        </div>
      )}
      {!host.local && <HostActions host={host} failed={failed} />}
    </li>
  );
}

/** A failed link offers to be removed rather than unlinked: the same mutation, in the words of what it is. */
function HostActions({ host, failed }: { host: Host; failed: boolean }) {
  // the tier asked for, shown until hostsChanged brings it back
  const [pendingTrust, setPendingTrust] = useState<Trust | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setPendingTrust(null), [host.trust]);
  const words = failed
    ? { ask: `Remove the link to ${host.name}?`, more: 'The hub stops trying it.', open: 'Remove…', act: 'Remove', acting: 'Removing…', done: 'removed' }
    : { ask: `Unlink ${host.name}?`, more: 'Its sessions leave the list.', open: 'Unlink…', act: 'Unlink', acting: 'Unlinking…', done: 'unlinked' };

  const changeTrust = (trust: Trust) => {
    setPendingTrust(trust);
    setError(null);
    setHostTrust(host.name, trust).catch((err: Error) => {
      setPendingTrust(null);
      setError(`The trust could not be changed: ${err.message}`);
    });
  };
  const unlink = () => {
    setBusy(true);
    setError(null);
    // on success hostsChanged drops this row
    unlinkHost(host.name).catch((err: Error) => {
      setBusy(false);
      setConfirming(false);
      setError(`${host.name} could not be ${words.done}: ${err.message}`);
    });
  };

  return (
    <div className="net-actions">
      <label title={TRUST_HINT}>
        trust{' '}
        <select aria-label={`Trust of ${host.name}`} value={pendingTrust ?? host.trust ?? 'DIRECTED'} onChange={(e) => changeTrust(e.target.value as Trust)}>
          {Object.entries(TRUST_LABEL).map(([tier, label]) => (
            <option key={tier} value={tier}>
              {label}
            </option>
          ))}
        </select>
      </label>
      {confirming ? (
        <fieldset className="net-confirm" aria-label={words.ask}>
          {words.ask} {words.more}
          <button type="button" className="net-danger" disabled={busy} onClick={unlink}>
            {busy ? words.acting : words.act}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </fieldset>
      ) : (
        <button type="button" className={failed ? 'net-remove' : undefined} onClick={() => setConfirming(true)}>
          {words.open}
        </button>
      )}
      {error && <p className="error">{error}</p>}
    </div>
  );
}
