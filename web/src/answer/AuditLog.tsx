import { useQuery } from 'urql';
import { ACTIONS } from './queries';

// The kernel's audit log, newest first: every answer sent through it, accepted or refused.

export function AuditLog() {
  const [{ data, error }] = useQuery({ query: ACTIONS, requestPolicy: 'network-only' });
  if (error) return <p className="error">{error.message}</p>;
  if (!data) return <p>Loading…</p>;
  if (data.actions.length === 0) return <p className="audit-empty">No action was taken through this kernel yet.</p>;
  return (
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
  );
}
