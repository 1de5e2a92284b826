import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

// A real OpenSSH sshd for federation tests: foreground, loopback only, its own config, host key
// and authorized key in a temp dir, and a temp client HOME that trusts it.

const SSHD = '/usr/sbin/sshd';
const SSH_KEYGEN = '/usr/bin/ssh-keygen';
const READY_TIMEOUT_MS = 10_000;
const EXIT_TIMEOUT_MS = 5_000;

export interface SshKey {
  /** the public line: "ssh-ed25519 AAAA… comment" */
  line: string;
  /** the raw public key blob (wire format), what ssh2's hostVerifier receives */
  blob: Buffer;
}

export interface TestSshd {
  port: number;
  /** the login user the keys are set up for (whoever runs the tests: root here) */
  user: string;
  /** the client's temp HOME, with .ssh/id_ed25519, known_hosts (unless knownHosts: false) */
  home: string;
  /** the server's host key; replaced by rotateHostKey() */
  hostKey: SshKey;
  /** path to the client's private key the server accepts */
  userKey: string;
  /** what sshd wrote on stderr, one line per entry, across restarts */
  logs: string[];
  /** starts sshd again after stop(), and waits until it accepts connections */
  start(): Promise<void>;
  /** kills sshd and its per-connection processes, so open connections drop too */
  stop(): Promise<void>;
  /** replaces the server's host key with a new one and restarts sshd; known_hosts keeps the old key */
  rotateHostKey(): Promise<void>;
  /** stops sshd and removes every temp file */
  close(): Promise<void>;
}

export interface SshdOptions {
  /** write <home>/.ssh/known_hosts with the server's host key (default true) */
  knownHosts?: boolean;
  /** contents of <home>/.ssh/config, given the port and key the server uses */
  sshConfig?: (server: { port: number; user: string; userKey: string }) => string;
}

/** Starts an sshd on a free loopback port and waits until it accepts connections. */
export async function startSshd(options: SshdOptions = {}): Promise<TestSshd> {
  const root = mkdtempSync(join(tmpdir(), 'loom-sshd-'));
  const serverDir = join(root, 'server');
  const home = join(root, 'home');
  const sshDir = join(home, '.ssh');
  mkdirSync(serverDir);
  mkdirSync(sshDir, { recursive: true, mode: 0o700 });
  // sshd's privilege separation refuses to start without this directory (as root).
  mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });

  const port = await freePort();
  const user = userInfo().username;
  const hostKeyPath = join(serverDir, 'host_ed25519');
  const userKey = join(sshDir, 'id_ed25519');
  const configPath = join(serverDir, 'sshd_config');
  const logs: string[] = [];
  let sshd: ChildProcess | undefined;

  const sshdKey = await generateKey(hostKeyPath, 'loom-test-host');
  const clientKey = await generateKey(userKey, 'loom-test-user');
  writeFileSync(join(serverDir, 'authorized_keys'), `${clientKey.line}\n`);
  writeFileSync(configPath, sshdConfig({ dir: serverDir, port, hostKeyPath }));
  if (options.knownHosts !== false) writeFileSync(join(sshDir, 'known_hosts'), knownHostsLine(port, sshdKey));
  if (options.sshConfig) writeFileSync(join(sshDir, 'config'), options.sshConfig({ port, user, userKey }));

  const stop = async () => {
    const child = sshd;
    sshd = undefined;
    if (child) await killSshd(child);
  };
  const start = async () => {
    if (sshd && !hasExited(sshd)) return;
    sshd = launch(configPath, logs);
    try {
      await waitUntilReady(sshd, port, logs);
    } catch (err) {
      await stop();
      throw err;
    }
  };
  const instance: TestSshd = {
    port,
    user,
    home,
    hostKey: sshdKey,
    userKey,
    logs,
    start,
    stop,
    async rotateHostKey() {
      instance.hostKey = await generateKey(hostKeyPath, 'loom-test-host-rotated');
      await stop();
      await start();
    },
    async close() {
      await stop();
      leftovers.delete(instance);
      rmSync(root, { recursive: true, force: true });
    },
  };
  // If a test forgets close(), the exit hook kills what this instance runs and removes its files.
  leftovers.set(instance, () => {
    killTree(sshd?.pid);
    rmSync(root, { recursive: true, force: true });
  });
  try {
    await start();
  } catch (err) {
    await instance.close();
    throw err;
  }
  return instance;
}

function sshdConfig({ dir, port, hostKeyPath }: { dir: string; port: number; hostKeyPath: string }): string {
  return `${[
    'ListenAddress 127.0.0.1',
    `Port ${port}`,
    `HostKey ${hostKeyPath}`,
    `PidFile ${join(dir, 'sshd.pid')}`,
    `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
    'UsePAM no',
    // the temp dirs are not owned the way StrictModes wants
    'StrictModes no',
    'PubkeyAuthentication yes',
    'PasswordAuthentication no',
    'KbdInteractiveAuthentication no',
    'PermitRootLogin prohibit-password',
    'AllowTcpForwarding local',
    'PermitOpen 127.0.0.1:*',
    'AllowAgentForwarding no',
    'X11Forwarding no',
    // keep the machine's own ~/.ssh/rc out of test sessions
    'PermitUserRC no',
    'ClientAliveInterval 1',
    'ClientAliveCountMax 3',
  ].join('\n')}\n`;
}

function knownHostsLine(port: number, key: SshKey): string {
  const [type, base64] = key.line.split(' ');
  return `[127.0.0.1]:${port} ${type} ${base64}\n`;
}

/** Writes a fresh ed25519 key pair at `path` (replacing any) and returns its public half. */
async function generateKey(path: string, comment: string): Promise<SshKey> {
  rmSync(path, { force: true });
  rmSync(`${path}.pub`, { force: true });
  await promisify(execFile)(SSH_KEYGEN, ['-q', '-t', 'ed25519', '-N', '', '-C', comment, '-f', path]);
  const line = readFileSync(`${path}.pub`, 'utf8').trim();
  return { line, blob: Buffer.from(line.split(' ')[1], 'base64') };
}

function launch(configPath: string, logs: string[]): ChildProcess {
  const child = spawn(SSHD, ['-D', '-e', '-f', configPath], { stdio: ['ignore', 'ignore', 'pipe'] });
  let partial = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    logs.push(...lines);
  });
  return child;
}

/** Polls until sshd sends its banner on a fresh connection; fails early, with its log, if it exits. */
async function waitUntilReady(child: ChildProcess, port: number, logs: string[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (hasExited(child)) {
      throw new Error(`sshd exited (${child.exitCode ?? child.signalCode}) before accepting connections:\n${logs.join('\n')}`);
    }
    if (await sendsBanner(port)) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`sshd did not accept connections on port ${port} within ${READY_TIMEOUT_MS} ms:\n${logs.join('\n')}`);
}

function sendsBanner(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('data', (data) => done(data.toString('latin1').startsWith('SSH-')));
    socket.once('error', () => done(false));
    socket.once('close', () => done(false));
  });
}

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

async function killSshd(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  const pids = killTree(child.pid);
  if (!hasExited(child)) await exited;
  const deadline = Date.now() + EXIT_TIMEOUT_MS;
  while (pids.some(isAlive)) {
    if (Date.now() > deadline) throw new Error(`sshd processes ${pids.filter(isAlive).join(', ')} survived SIGKILL`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * SIGKILLs sshd and every process it forked. Each connection runs in its own session (sshd calls
 * setsid), so a process group kill would miss them; the listener is stopped first so it cannot
 * fork a new one while the tree is read.
 */
function killTree(pid: number | undefined): number[] {
  if (pid === undefined) return [];
  if (!signal(pid, 'SIGSTOP')) return [];
  const pids = [pid, ...descendants(pid)];
  for (const each of pids) signal(each, 'SIGKILL');
  return pids;
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false; // already gone
  }
}

function descendants(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const [child, parent] of processParents()) children.set(parent, [...(children.get(parent) ?? []), child]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()!) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

/** [pid, ppid] of every live process, from /proc. */
function processParents(): [number, number][] {
  const pairs: [number, number][] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) pairs.push([Number(entry), stat.ppid]);
  }
  return pairs;
}

function readStat(pid: number): { state: string; ppid: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name is in parentheses and may itself hold spaces or parentheses
    const [state, ppid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state, ppid: Number(ppid) };
  } catch {
    return undefined;
  }
}

/** Zombies count as dead: their sockets are closed, and PID 1 here may never reap them. */
function isAlive(pid: number): boolean {
  const state = readStat(pid)?.state;
  return state !== undefined && state !== 'Z' && state !== 'X';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// Synchronous cleanups of the instances not closed yet, run when the test process exits.
const leftovers = new Map<TestSshd, () => void>();
process.once('exit', () => {
  for (const cleanUp of leftovers.values()) cleanUp();
});
