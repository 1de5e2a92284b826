import { useState } from 'react';
import { useQuery } from 'urql';
import { useHosts } from '../network/hosts';
import { ACTIONS } from './queries';

// The kernel's audit log, newest first: every answer sent through it, accepted or refused.

/** The log of this kernel, or of a linked host that is up (each keeps its own). */
export function AuditLog() {
  const { hosts } = useHosts();
  const [host, setHost] = useState<string | null>(null);
  const linked = hosts.filter((h) => !h.local && h.status?.state === 'UP');
  return (
    <>
      {linked.length > 0 && (
        <label>
          Host{' '}
          <select value={host ?? ''} onChange={(e) => setHost(e.target.value || null)}>
            <option value="">{hosts.find((h) => h.local)?.name ?? 'this machine'}</option>
            {linked.map((h) => (
              <option key={h.name} value={h.name}>
                {h.name}
              </option>
            ))}
          </select>
        </label>
      )}
      <ActionsOf host={host} />
    </>
  );
}

function ActionsOf({ host }: { host: string | null }) {
  const [{ data, error }] = useQuery({ query: ACTIONS, variables: { host }, requestPolicy: 'network-only' });
  if (error) return <p className="error">{error.message}</p>;
  if (!data) return <p>Loading…</p>;
  if (data.actions.length === 0) return <p className="audit-empty">No action was taken through this kernel yet.</p>;
  return (
    <div className="audit-log-box">
      <table className="audit-log">
        <thead>
          <tr>
            <th>when</th>
            <th>who</th>
            <th>what</th>
            <th>where</th>
            <th>result</th>
          </tr>
        </thead>
        <tbody>
          {data.actions.map((a) => (
            <tr key={a.seq} data-result={a.result}>
              <td>{new Date(a.at).toLocaleString()}</td>
              <td>{a.actor}</td>
              <td>
                {a.action}: {a.summary}
              </td>
              <td>{a.sessionId ?? a.host}</td>
              <td title={a.message ?? undefined}>{a.result}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
