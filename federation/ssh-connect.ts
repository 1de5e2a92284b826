import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { AnyAuthMethod, Client, ClientChannel } from 'ssh2';
import { checkHostKey, fingerprint, knownHostsLine } from './known-hosts';
import { LinkFailure } from './link-failure';
import type { SshTarget } from './ssh-target';

// One SSH connection to a linked host, made the way OpenSSH would make it: keys from the agent
// and the identity files, the host key checked against known_hosts (ssh2 trusts any key unless
// told otherwise), no agent forwarding, keepalive on, Nagle off. ssh2 is loaded with the first
// link, not at the kernel's start: a kernel with no hosts never needs it (40 ms of every start).

export interface SshConnectOptions {
  target: SshTarget;
  /** known_hosts files; the first is where --accept-new writes */
  knownHosts: string[];
  /** the SSH agent's socket (SSH_AUTH_SOCK), if any */
  agent: string | undefined;
  /** accept and remember a host key seen for the first time (never a changed one) */
  acceptNew: boolean;
  keepaliveMs: number;
  readyTimeoutMs?: number;
}

/** Connects (through one ProxyJump hop when configured); rejects with a LinkFailure. */
export async function connectSsh(options: SshConnectOptions): Promise<Client> {
  const { target } = options;
  if (!target.proxyJump) return handshake(options, target, undefined);
  const jump = await handshake(options, target.proxyJump, undefined);
  const sock = await new Promise<ClientChannel>((resolve, reject) =>
    jump.forwardOut('127.0.0.1', 0, target.hostName, target.port, (err, stream) =>
      err
        ? reject(new LinkFailure('UNREACHABLE', `${target.proxyJump!.hostName} (ProxyJump) could not reach ${target.hostName}:${target.port}: ${err.message}`))
        : resolve(stream),
    ),
  ).catch((err) => {
    jump.end();
    throw err;
  });
  const client = await handshake(options, target, sock).catch((err) => {
    jump.end();
    throw err;
  });
  client.once('close', () => jump.end());
  return client;
}

async function handshake(options: SshConnectOptions, target: SshTarget, sock: ClientChannel | undefined): Promise<Client> {
  const { Client } = await import('ssh2').catch((err: Error) => {
    throw new LinkFailure('UNREACHABLE', `Loom's SSH client (the ssh2 package) could not be loaded (${err.message}); reinstall Loom's packages (npm ci)`);
  });
  return new Promise((resolve, reject) => {
    const client = new Client();
    let keyFailure: LinkFailure | null = null;
    const methods = authMethods(options, target);
    client.once('ready', () => {
      client.setNoDelay(true);
      resolve(client);
    });
    // `on`, not `once`: ssh2 may emit a second error after the first (a lost socket after a
    // timeout), and an error with no listener would take the kernel down
    let failed = false;
    client.on('error', (err: Error & { level?: string }) => {
      if (failed) return;
      failed = true;
      client.end();
      if (keyFailure) return reject(keyFailure);
      if (err.level === 'client-authentication') {
        const tried = methods.map((m) => (m.type === 'agent' ? 'the SSH agent' : m.label)).join(', ') || 'no key (none found)';
        return reject(
          new LinkFailure(
            'AUTH_FAILED',
            `${target.user}@${target.hostName} refused every key Loom offered (${tried}); add your public key to ~/.ssh/authorized_keys there`,
          ),
        );
      }
      reject(new LinkFailure('UNREACHABLE', `cannot reach ${target.hostName}:${target.port}: ${err.message}`));
    });
    client.connect({
      host: target.hostName,
      port: target.port,
      username: target.user,
      sock,
      authHandler: methods.map(({ label: _, ...m }) => m as AnyAuthMethod),
      agentForward: false,
      keepaliveInterval: options.keepaliveMs,
      keepaliveCountMax: 3,
      readyTimeout: options.readyTimeoutMs ?? 15_000,
      hostVerifier: (key: Buffer) => {
        keyFailure = verifyHostKey(options, target, key);
        return keyFailure === null;
      },
    });
  });
}

type LabelledAuth = AnyAuthMethod & { label: string };

/** The agent first, then every identity file that exists and needs no passphrase. */
function authMethods(options: SshConnectOptions, target: SshTarget): LabelledAuth[] {
  const methods: LabelledAuth[] = [];
  if (options.agent) methods.push({ type: 'agent', username: target.user, agent: options.agent, label: 'the SSH agent' });
  for (const file of target.identityFiles) {
    let key: Buffer;
    try {
      key = readFileSync(file);
    } catch {
      continue;
    }
    if (key.includes('ENCRYPTED')) continue; // a passphrase-protected key works through the agent
    methods.push({ type: 'publickey', username: target.user, key, label: file });
  }
  return methods;
}

function verifyHostKey(options: SshConnectOptions, target: SshTarget, key: Buffer): LinkFailure | null {
  const files = options.knownHosts.flatMap((path) => {
    try {
      return [{ path, text: readFileSync(path, 'utf8') }];
    } catch {
      return [];
    }
  });
  const verdict = checkHostKey(files, target.hostName, target.port, key);
  const name = target.port === 22 ? target.hostName : `[${target.hostName}]:${target.port}`;
  const print = fingerprint(key);
  switch (verdict.kind) {
    case 'known':
      return null;
    case 'unknown':
      if (options.acceptNew) {
        mkdirSync(dirname(options.knownHosts[0]), { recursive: true, mode: 0o700 });
        appendFileSync(options.knownHosts[0], `${knownHostsLine(target.hostName, target.port, key)}\n`, { mode: 0o600 });
        return null;
      }
      return new LinkFailure(
        'HOST_KEY_UNKNOWN',
        `the host key of ${name} is not known (${print}). If that is its key, accept it with: loom link ${options.target.target} --accept-new`,
      );
    case 'changed':
      return new LinkFailure(
        'HOST_KEY_CHANGED',
        `the host key of ${name} changed (now ${print}; ${verdict.file} line ${verdict.line} holds another). This may be an attack; if the change is expected, remove the old key with: ssh-keygen -R '${name}'`,
      );
    case 'revoked':
      return new LinkFailure(
        'HOST_KEY_REVOKED',
        `the host key of ${name} (${print}) is revoked in ${verdict.file} line ${verdict.line}; Loom will not connect`,
      );
  }
}
