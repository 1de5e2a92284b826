import { connection } from '../lib/connection';

// Says when what the page shows may be behind the kernel: while the socket is down, and after
// it came back until the first fresh frame.
export function StatusBanner() {
  const state = connection.use();
  if (state === 'reconnecting')
    return (
      <div className="banner banner-down" role="status">
        Connection to the kernel lost: reconnecting…
      </div>
    );
  if (state === 'stale')
    return (
      <div className="banner banner-stale" role="status">
        Reconnected: what you see may be stale until fresh data arrives.
      </div>
    );
  return null;
}
