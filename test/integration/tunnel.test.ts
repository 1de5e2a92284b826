import { createServer, type Server, type ServerResponse } from 'node:http';
import { Client, utils } from 'ssh2';
import { afterEach, describe, expect, it } from 'vitest';
import { RemoteClient } from '../../federation/remote-client';
import { TunnelAgent } from '../../federation/tunnel';
import { startSsh2Server, type TestSsh2Server } from '../helpers/ssh2-server';
import { until } from '../helpers/wait';

// The hub's client of a remote kernel, through SSH channels of a real ssh2 server, to a local
// HTTP server standing in for a kernel that is slow to answer.

const keys = utils.generateKeyPairSync('ed25519');

let server: TestSsh2Server | undefined;
let kernel: Server | undefined;
afterEach(async () => {
  await server?.close();
  await new Promise((resolve) => (kernel ? kernel.close(resolve) : resolve(undefined)));
  server = kernel = undefined;
});

/** A "kernel" that holds every request it gets, and the SSH connection to reach it. */
async function slowKernelThroughSsh(): Promise<{ held: ServerResponse[]; ssh: Client; client: RemoteClient }> {
  const held: ServerResponse[] = [];
  kernel = createServer((_req, res) => held.push(res));
  await new Promise<void>((resolve) => kernel!.listen(0, '127.0.0.1', resolve));
  const port = (kernel.address() as { port: number }).port;
  server = await startSsh2Server({ authorizedKey: keys.public });
  const ssh = new Client();
  const hostKey = server.hostKey.blob;
  await new Promise<void>((resolve, reject) => {
    ssh.once('ready', resolve).once('error', reject);
    ssh.connect({ host: '127.0.0.1', port: server!.port, username: 'me', privateKey: keys.private, hostVerifier: (key: Buffer) => key.equals(hostKey) });
  });
  return { held, ssh, client: new RemoteClient(new TunnelAgent(ssh, port), port, 'token') };
}

describe('requests to a remote kernel through SSH channels', () => {
  it('has at most eight on their way at once, the rest waiting their turn', async () => {
    const { held, client } = await slowKernelThroughSsh();
    const asked = Array.from({ length: 12 }, () => client.query('{ kernel { version } }').catch((err: Error) => err));
    await until(() => held.length === 8, 'eight requests at the kernel');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(held.length).toBe(8);
    for (const res of held.splice(0)) res.end(JSON.stringify({ data: { kernel: { version: '1' } } }));
    await until(() => held.length === 4, 'the four that waited');
    for (const res of held.splice(0)) res.end(JSON.stringify({ data: { kernel: { version: '1' } } }));
    expect(await Promise.all(asked)).toEqual(Array(12).fill({ kernel: { version: '1' } }));
    client.close();
  });

  it('fails every request, those waiting included, when the SSH connection drops under them', async () => {
    const { held, client } = await slowKernelThroughSsh();
    const asked = Array.from({ length: 12 }, () => client.query('{ kernel { version } }').then(
      () => 'answered',
      (err: Error) => err.message,
    ));
    await until(() => held.length === 8, 'eight requests at the kernel');
    await server!.close(); // the link drops: the SSH server's sockets are gone
    const outcomes = await Promise.all(asked);
    expect(outcomes).toHaveLength(12);
    expect(outcomes.every((o) => o !== 'answered' && o.length > 0)).toBe(true);
    client.close();
  });
});
