import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client, type ConnectConfig } from 'ssh2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ed25519KeyPair, startSsh2Server, type TestSsh2Server } from '../helpers/ssh2-server';
import { startSshd, type TestSshd } from '../helpers/sshd';

// Proves the SSH test harnesses the federation tests stand on, with a real ssh2 client.

const HTTP_ANSWER = 'hello through the tunnel';
let http: Server;
let httpPort: number;

beforeAll(async () => {
  http = createServer((_req, res) => res.end(HTTP_ANSWER));
  await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
  httpPort = (http.address() as { port: number }).port;
});
afterAll(() => new Promise((r) => http.close(r)));

describe('real sshd harness', () => {
  let sshd: TestSshd;
  const clients: Client[] = [];
  const connectToSshd = async (expectedBlob = sshd.hostKey.blob) => {
    const client = await connect({
      port: sshd.port,
      username: sshd.user,
      privateKey: readFileSync(sshd.userKey),
      hostVerifier: (key: Buffer) => key.equals(expectedBlob),
    });
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    sshd = await startSshd({
      sshConfig: ({ port, user, userKey }) => `Host spoke\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ${userKey}\n`,
    });
  });
  afterAll(async () => {
    for (const client of clients) client.end();
    await sshd?.close();
  });

  it('lets the user key in, verifying the host key blob, and runs a command', async () => {
    const client = await connectToSshd();
    expect(await run(client, 'echo hi')).toEqual({ stdout: 'hi\n', code: 0 });
  });

  it('forwards a connection to a loopback port', async () => {
    const client = await connectToSshd();
    expect(await httpGetThrough(client, httpPort)).toContain(HTTP_ANSWER);
  });

  it.skipIf(!hasSshBinary())('writes a known_hosts line the OpenSSH client accepts strictly', async () => {
    const { stdout } = await systemSsh(sshd, 'echo ok');
    expect(stdout).toBe('ok\n');
  });

  it.skipIf(!hasSshBinary())('writes the ssh config it is given into the client HOME', async () => {
    const ssh = sshArgs(sshd.home);
    const { stdout } = await promisify(execFile)('ssh', ['-F', join(sshd.home, '.ssh', 'config'), ...ssh, 'spoke', 'echo via-config']);
    expect(stdout).toBe('via-config\n');
  });

  it('drops open connections on stop() and takes new ones after start()', async () => {
    const client = await connectToSshd();
    const closed = new Promise<void>((r) => client.once('close', () => r()));
    await sshd.stop();
    await within(closed, 3_000, 'the client to see the connection close');
    await expect(connectToSshd()).rejects.toThrow();

    await sshd.start();
    const again = await connectToSshd();
    expect(await run(again, 'echo back')).toEqual({ stdout: 'back\n', code: 0 });
  });

  it('serves a new host key after rotateHostKey(), which the old known_hosts refuses', async () => {
    const before = sshd.hostKey.blob;
    await sshd.rotateHostKey();
    expect(sshd.hostKey.blob.equals(before)).toBe(false);
    await expect(connectToSshd(before)).rejects.toThrow();
    await connectToSshd(sshd.hostKey.blob);
    if (hasSshBinary()) await expect(systemSsh(sshd, 'echo ok')).rejects.toThrow(/HOST IDENTIFICATION HAS CHANGED/);
  });
});

describe('ssh2 server harness', () => {
  const userKey = ed25519KeyPair();
  let server: TestSsh2Server;
  const connectToServer = (extra: Partial<ConnectConfig> = {}) =>
    connect({
      port: server.port,
      username: 'loom',
      privateKey: userKey.private,
      hostVerifier: (key: Buffer) => key.equals(server.hostKey.blob),
      ...extra,
    });

  beforeAll(async () => {
    server = await startSsh2Server({ authorizedKey: userKey.public });
  });
  afterAll(() => server?.close());

  it('refuses a key it was not given', async () => {
    const stranger = ed25519KeyPair();
    await expect(connectToServer({ privateKey: stranger.private })).rejects.toThrow(/authentication/i);
  });

  it('answers exec requests through the replaceable handler', async () => {
    server.exec = (command) => ({ stdout: `ran ${command}\n`, code: 3 });
    const client = await connectToServer();
    expect(await run(client, 'loom status')).toEqual({ stdout: 'ran loom status\n', code: 3 });
    client.end();
  });

  it('forwards a connection to a loopback port', async () => {
    const client = await connectToServer();
    expect(await httpGetThrough(client, httpPort)).toContain(HTTP_ANSWER);
    client.end();
  });

  it('goes silent on blackhole(), so a client keepalive gives up', async () => {
    const client = await connectToServer({ keepaliveInterval: 200, keepaliveCountMax: 2 });
    const errors: string[] = [];
    client.on('error', (err) => errors.push(err.message));
    const dropped = new Promise<void>((r) => client.once('close', () => r()));
    // a control: keepalives are answered while the server is healthy
    await new Promise((r) => setTimeout(r, 1_000));
    expect(errors).toEqual([]);

    server.blackhole();
    await within(dropped, 3_000, 'the keepalive to give up');
    expect(errors).toContain('Keepalive timeout');
  });
});

function connect(config: ConnectConfig): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.once('ready', () => resolve(client));
    client.on('error', reject); // also swallows errors after ready: the tests watch 'close'
    client.connect({ host: '127.0.0.1', readyTimeout: 5_000, ...config });
  });
}

function run(client: Client, command: string): Promise<{ stdout: string; code: number }> {
  return new Promise((resolve, reject) => {
    client.exec(command, (err, stream) => {
      if (err) return reject(err);
      let stdout = '';
      let code = -1;
      stream.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      stream.on('exit', (status: number) => (code = status));
      stream.on('close', () => resolve({ stdout, code }));
    });
  });
}

function httpGetThrough(client: Client, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    client.forwardOut('127.0.0.1', 0, '127.0.0.1', port, (err, channel) => {
      if (err) return reject(err);
      let answer = '';
      channel.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      channel.on('close', () => resolve(answer));
      channel.end(`GET / HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
    });
  });
}

/** OpenSSH reads ~ from the password database, not $HOME: point it at the temp HOME's files. */
function sshArgs(home: string): string[] {
  return [
    '-o',
    'BatchMode=yes',
    '-o',
    'StrictHostKeyChecking=yes',
    '-o',
    `UserKnownHostsFile=${join(home, '.ssh', 'known_hosts')}`,
    '-o',
    'GlobalKnownHostsFile=/dev/null',
  ];
}

function systemSsh(sshd: TestSshd, command: string) {
  const target = `${sshd.user}@127.0.0.1`;
  return promisify(execFile)('ssh', ['-F', '/dev/null', ...sshArgs(sshd.home), '-i', sshd.userKey, '-p', String(sshd.port), target, command]);
}

function hasSshBinary(): boolean {
  try {
    execFileSync('which', ['ssh'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
