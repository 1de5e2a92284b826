import { type FormEvent, useState } from 'react';
import { stateLine, TRUST_HINT, TRUST_LABEL } from './describe';
import { type Host, linkHost, type Trust } from './hosts';

/** Links a host over SSH and says how the first attempt went (UP, or DOWN with what to do). */
export function LinkForm() {
  const [target, setTarget] = useState('');
  const [name, setName] = useState('');
  const [trust, setTrust] = useState<Trust>('DIRECTED');
  const [acceptNewHostKey, setAcceptNewHostKey] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Host | null>(null);
  const [error, setError] = useState<string | null>(null);
  // the kernel refuses a key it never saw, with its fingerprint: only then is there a key to accept
  const keyUnknown = result?.status?.reason === 'HOST_KEY_UNKNOWN';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    linkHost({ target: target.trim(), name: name.trim(), trust, acceptNewHostKey: keyUnknown && acceptNewHostKey })
      .then((host) => {
        setResult(host);
        setAcceptNewHostKey(false);
        // keep what was typed when it failed, to try again after fixing the cause
        if (host.status?.state === 'UP') {
          setTarget('');
          setName('');
        }
      })
      .catch((err: Error) => {
        setResult(null);
        setError(`The host could not be linked: ${err.message}`);
      })
      .finally(() => setBusy(false));
  };

  return (
    <form className="net-link" onSubmit={submit} aria-label="Link a host">
      <h3>Link a host</h3>
      <div className="net-link-fields">
        <input aria-label="SSH target" placeholder="user@host:port or ssh alias" required value={target} onChange={(e) => setTarget(e.target.value)} />
        <input aria-label="Name" placeholder="name (optional)" value={name} onChange={(e) => setName(e.target.value)} />
        <select aria-label="Trust" title={TRUST_HINT} value={trust} onChange={(e) => setTrust(e.target.value as Trust)}>
          {Object.entries(TRUST_LABEL).map(([tier, label]) => (
            <option key={tier} value={tier}>
              {label}
            </option>
          ))}
        </select>
        <button type="submit" disabled={busy || target.trim() === ''}>
          {busy ? 'Linking…' : 'Link'}
        </button>
      </div>
      {result && (
        <div className="net-result" role="status" data-state={result.status?.state}>
          <strong>{result.name}</strong>: {stateLine(result)}
          {result.status?.message && <p className="net-message">{result.status.message}</p>}
        </div>
      )}
      {keyUnknown && (
        <label className="net-accept">
          <input type="checkbox" checked={acceptNewHostKey} onChange={(e) => setAcceptNewHostKey(e.target.checked)} /> accept a new host key (once the
          fingerprint above is the host's), then Link again
        </label>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
