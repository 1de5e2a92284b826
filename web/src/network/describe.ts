import type { Connection } from '../lib/connection';
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

/**
 * A link that has not connected once (since it was linked, or since this kernel started): DOWN
 * and never seen. One that was up and went away is only down.
 */
export function linkFailed(host: Host): boolean {
  return host.status?.state === 'DOWN' && host.status.lastSeen === null;
}

/** "up · 2.1 ms", "connecting", "down · unreachable", "link failed · unreachable": the state in a few words, without the message. */
export function stateLine(host: Host): string {
  const status = host.status;
  if (!status) return 'up';
  if (status.state === 'UP') return status.rttMs === null ? 'up' : `up · ${roundTrip(status.rttMs)}`;
  if (status.state === 'CONNECTING') return 'connecting';
  const state = linkFailed(host) ? 'link failed' : 'down';
  return status.reason ? `${state} · ${REASON_LABEL[status.reason]}` : state;
}

type Tone = 'up' | 'connecting' | 'down';

/**
 * The button: its colour and words. The kernel itself comes first: while the page cannot reach
 * it, the hosts' last states say nothing about now.
 */
export function networkButton(connection: Connection, hosts: readonly Host[], loaded: boolean, error: string | null): { tone: Tone; label: string } {
  if (connection === 'reconnecting') return { tone: 'down', label: 'kernel unreachable: reconnecting…' };
  const tone = hosts.some((h) => h.status?.state === 'DOWN') ? 'down' : hosts.some((h) => h.status?.state === 'CONNECTING') ? 'connecting' : 'up';
  return { tone, label: error ? 'hosts ?' : loaded ? summary(hosts) : 'hosts…' };
}

/** "3 hosts · 1 down · 1 failed": the button's label while the kernel answers. */
export function summary(hosts: readonly Host[]): string {
  const count = (is: (host: Host) => boolean) => hosts.filter(is).length;
  const failed = count(linkFailed);
  const down = count((h) => h.status?.state === 'DOWN') - failed;
  const connecting = count((h) => h.status?.state === 'CONNECTING');
  const parts = [`${hosts.length} ${hosts.length === 1 ? 'host' : 'hosts'}`];
  if (down > 0) parts.push(`${down} down`);
  if (failed > 0) parts.push(`${failed} failed`);
  if (connecting > 0) parts.push(`${connecting} connecting`);
  return parts.join(' · ');
}
