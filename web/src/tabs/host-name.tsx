import { plainTitle } from '../lib/plain-title';

/** `host:name`, the host part dimmed: every session is named this way across machines. */
export function HostName({ host, name }: { host: string; name: string }) {
  return (
    <span className="host-name">
      <span className="host">{host}:</span>
      {plainTitle(name)}
    </span>
  );
}
