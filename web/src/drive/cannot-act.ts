import { REASON_LABEL } from '../network/describe';
import type { Host } from '../network/hosts';

// Why nothing can be sent to a host from this page, in words a person can act on: the kernel
// would refuse it anyway (FORBIDDEN on an isolated host, UNAVAILABLE on one that is down), so
// the composer and the dialog say it before the person types.

/** Why this hub may not act on the host, or null when it may (or when the host is not known yet). */
export function cannotActOn(host: Host | undefined): string | null {
  if (!host || host.local) return null;
  if (host.trust === 'ISOLATED') return `${host.name} is isolated: this hub only reads it. Trust it as directed or trusted (Network) to act there.`;
  const status = host.status;
  if (status?.state === 'DOWN') return `${host.name} is down${status.reason ? ` (${REASON_LABEL[status.reason]})` : ''}: nothing reaches it until it is back.`;
  if (status?.state === 'CONNECTING') return `Connecting to ${host.name}…`;
  return null;
}
