import type { Host } from '../network/hosts';

interface HostOf {
  host: { name: string; status?: { state: string; since: string } | null };
}

/**
 * When the session's host went down, or null while it is reachable (or is this machine). The live
 * hosts list (hostsChanged) wins over the session's own copy of its host's status, which moves
 * only when the session itself changes.
 */
export function staleSince(session: HostOf, hosts: readonly Host[] = []): string | null {
  const live = hosts.find((h) => h.name === session.host.name);
  const status = live ? live.status : session.host.status;
  return status?.state === 'DOWN' ? status.since : null;
}
