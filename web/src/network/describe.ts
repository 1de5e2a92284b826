import type { DownReason, Host, Trust } from './hosts';

// Words for what the API says about a host, shared by the rows, the button and the link form.

export const REASON_LABEL: Record<DownReason, string> = {
  UNREACHABLE: 'unreachable',
  AUTH_FAILED: 'authentication failed',
  HOST_KEY_UNKNOWN: 'unknown host key',
  HOST_KEY_CHANGED: 'host key changed',
  HOST_KEY_REVOKED: 'host key revoked',
  KERNEL_NOT_RUNNING: 'kernel not running',
  VERSION_MISMATCH: 'version mismatch',
};

export const TRUST_LABEL: Record<Trust, string> = {
  TRUSTED: 'trusted',
  DIRECTED: 'directed',
  ISOLATED: 'isolated',
};

export const TRUST_HINT = 'What this hub sends the host: reads always; mutations to trusted and directed hosts; none to isolated ones.';

/** "2.1 ms", "38 ms" */
export function roundTrip(ms: number): string {
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
}

/** "up · 2.1 ms", "connecting", "down · unreachable": the state in a few words, without the message. */
export function stateLine(host: Host): string {
  const status = host.status;
  if (!status) return 'up';
  if (status.state === 'UP') return status.rttMs === null ? 'up' : `up · ${roundTrip(status.rttMs)}`;
  if (status.state === 'CONNECTING') return 'connecting';
  return status.reason ? `down · ${REASON_LABEL[status.reason]}` : 'down';
}

/** "3 hosts · 1 down": the button's label. */
export function summary(hosts: readonly Host[]): string {
  const count = (state: string) => hosts.filter((h) => h.status?.state === state).length;
  const parts = [`${hosts.length} ${hosts.length === 1 ? 'host' : 'hosts'}`];
  if (count('DOWN') > 0) parts.push(`${count('DOWN')} down`);
  if (count('CONNECTING') > 0) parts.push(`${count('CONNECTING')} connecting`);
  return parts.join(' · ');
}
