import type { Client } from 'ssh2';
import { VERSION } from '../spoke/version';
import type { LinkedHost } from './hosts-config';
import { LinkFailure } from './link-failure';
import { RemoteClient } from './remote-client';
import { exec, shellQuote } from './remote-exec';
import { openTunnel, type Tunnel } from './tunnel';

// Finding the kernel on a linked host: `loom status --json` there says whether one runs and on
// which port, the token is read from its state dir (never printed), and a tunnel reaches it.
// Loom never starts a remote kernel by itself.

export interface RemoteKernel {
  client: RemoteClient;
  tunnel: Tunnel;
  /** the name the remote kernel gives itself (ids from it carry this host part) */
  hostName: string;
  version: string;
}

const Status = (json: unknown): { running: boolean; port?: number; stateDir?: string; version?: string } | null =>
  json && typeof json === 'object' && typeof (json as { running?: unknown }).running === 'boolean' ? (json as never) : null;

export async function reachKernel(ssh: Client, host: LinkedHost): Promise<RemoteKernel> {
  const stateFlag = host.stateDir ? ` --state ${shellQuote(host.stateDir)}` : '';
  const result = await exec(ssh, `${host.command} status --json${stateFlag}`);
  if (result.code === 127) {
    throw new LinkFailure(
      'KERNEL_NOT_RUNNING',
      `"${host.command}" is not found on ${host.name}: install Loom there, or tell the hub how to run it (loom link ${host.target} --command "node /path/to/loom/server/bin/loom.js")`,
    );
  }
  const status = Status(parseLastLine(result.stdout));
  if (!status?.running || !status.port || !status.stateDir) {
    throw new LinkFailure('KERNEL_NOT_RUNNING', `no Loom kernel is running on ${host.name}: start one there with "loom up" (the hub never starts it for you)`);
  }
  if (!status.version || !compatible(status.version, VERSION)) {
    throw new LinkFailure('VERSION_MISMATCH', `${host.name} runs Loom ${status.version ?? '(unknown)'} and this hub ${VERSION}: upgrade the older one`);
  }
  const token = await exec(ssh, `cat -- ${shellQuote(`${status.stateDir}/token`)}`);
  if (token.code !== 0 || !token.stdout.trim()) {
    throw new LinkFailure('KERNEL_NOT_RUNNING', `cannot read the kernel's token on ${host.name} (${status.stateDir}/token): ${token.stderr.trim() || `exit ${token.code}`}`);
  }
  const tunnel = await openTunnel(ssh, status.port);
  const client = new RemoteClient(tunnel.port, status.port, token.stdout.trim());
  try {
    const { kernel } = await client.query<{ kernel: { version: string; host: { name: string } } }>('{ kernel { version host { name } } }');
    return { client, tunnel, hostName: kernel.host.name, version: kernel.version };
  } catch (err) {
    client.close();
    tunnel.close();
    throw new LinkFailure('KERNEL_NOT_RUNNING', `the kernel on ${host.name} did not answer through the tunnel: ${(err as Error).message}`);
  }
}

function parseLastLine(text: string): unknown {
  const last = text.trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last);
  } catch {
    return null;
  }
}

/** Same major version (and, before 1.0, the same minor): the API is the same. */
function compatible(a: string, b: string): boolean {
  const [am, an] = a.split('.');
  const [bm, bn] = b.split('.');
  return am === bm && (am !== '0' || an === bn);
}
