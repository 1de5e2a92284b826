import type { Client } from 'ssh2';
import { VERSION } from '../spoke/version';
import type { LinkedHost } from './hosts-config';
import { LinkFailure } from './link-failure';
import { ListCache } from './list-cache';
import { RemoteClient } from './remote-client';
import { quotedCommand } from './remote-command';
import { exec, shellQuote } from './remote-exec';
import { TunnelAgent } from './tunnel';

// Finding the kernel on a linked host: `loom status --json` there says whether one runs and on
// which port, the token is read from its state dir (never printed), and a tunnel reaches it.
// Loom never starts a remote kernel by itself.

export interface RemoteKernel {
  client: RemoteClient;
  /** its session lists as last read, while they stand */
  lists: ListCache;
  /** the name the remote kernel gives itself (ids from it carry this host part) */
  hostName: string;
  version: string;
}

interface RunningKernel {
  port: number;
  stateDir: string;
  version?: string;
}

/** What `loom status --json` says there: the running kernel, or null when none runs. */
async function remoteStatus(ssh: Client, host: LinkedHost, stateFlag: string): Promise<RunningKernel | null> {
  const result = await exec(ssh, `${quotedCommand(host.command)} status --json${stateFlag}`);
  if (result.code === 127) {
    throw new LinkFailure(
      'KERNEL_NOT_RUNNING',
      `"${host.command}" is not found on ${host.name}: install Loom there, or tell the hub how to run it (loom link ${host.target} --command "/usr/bin/node /path/to/loom/server/bin/loom.js")`,
    );
  }
  const json = parseLastLine(result.stdout) as { running?: boolean; port?: number; stateDir?: string; version?: string } | null;
  return json?.running && json.port && json.stateDir ? { port: json.port, stateDir: json.stateDir, version: json.version } : null;
}

/** How long a kernel started with --start may take to claim its state dir. */
const START_WAIT_MS = 20_000;

export async function reachKernel(ssh: Client, host: LinkedHost, options: { start: boolean; hubName?: string } = { start: false }): Promise<RemoteKernel> {
  const stateFlag = host.stateDir ? ` --state ${shellQuote(host.stateDir)}` : '';
  let status = await remoteStatus(ssh, host, stateFlag);
  if (!status && options.start) {
    // asked for in so many words (loom link --start): started detached, on a free port, no demo
    await exec(ssh, `nohup ${quotedCommand(host.command)} up --no-demo --port 0${stateFlag} >/dev/null 2>&1 </dev/null &`);
    const deadline = Date.now() + START_WAIT_MS;
    while (!status && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      status = await remoteStatus(ssh, host, stateFlag);
    }
  }
  if (!status) {
    throw new LinkFailure(
      'KERNEL_NOT_RUNNING',
      `no Loom kernel is running on ${host.name}: start one there with "loom up", or have the hub start it once with: loom link ${host.target} --start`,
    );
  }
  if (!status.version || !compatible(status.version, VERSION)) {
    throw new LinkFailure('VERSION_MISMATCH', `${host.name} runs Loom ${status.version ?? '(unknown)'} and this hub ${VERSION}: upgrade the older one`);
  }
  const token = await exec(ssh, `cat -- ${shellQuote(`${status.stateDir}/token`)}`);
  if (token.code !== 0 || !token.stdout.trim()) {
    throw new LinkFailure(
      'KERNEL_NOT_RUNNING',
      `cannot read the kernel's token on ${host.name} (${status.stateDir}/token): ${token.stderr.trim() || `exit ${token.code}`}`,
    );
  }
  // Keep the commands above before the tunnel: OpenSSH's sshd turns Nagle off on its side of the
  // connection only once a command session has run; a tunnel on a connection that never ran one
  // stalls ~40 ms per small response (measured: docs/performance.md, Federation).
  const client = new RemoteClient(new TunnelAgent(ssh, status.port), status.port, token.stdout.trim(), undefined, options.hubName ?? null);
  try {
    const { kernel } = await client.query<{ kernel: { version: string; host: { name: string } } }>('{ kernel { version host { name } } }');
    return { client, lists: new ListCache(client), hostName: kernel.host.name, version: kernel.version };
  } catch (err) {
    client.close();
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
