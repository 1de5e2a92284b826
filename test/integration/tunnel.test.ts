import { createServer, type Server } from 'node:http';
import { buildSchema } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { Client } from 'ssh2';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { RemoteClient } from '../../federation/remote-client';
import { TunnelAgent } from '../../federation/tunnel';
import { RemoteAnswerError } from '../../schema/remote/delegate';
import { ed25519KeyPair, startSsh2Server, type TestSsh2Server } from '../helpers/ssh2-server';
import { until } from '../helpers/wait';

// The hub's client of a remote kernel, through SSH channels of a real ssh2 server, to a
// graphql-ws server standing in for a kernel that holds every operation until told to answer.

const keys = ed25519KeyPair();
/** events a kernel sends at once on `flood`, more than the hub holds for one subscription */
const FLOOD = 3000;

let server: TestSsh2Server | undefined;
let kernel: Server | undefined;
let sockets: WebSocketServer | undefined;
afterEach(async () => {
  await server?.close();
  for (const socket of sockets?.clients ?? []) socket.terminate();
  await new Promise((resolve) => (kernel ? kernel.close(resolve) : resolve(undefined)));
  server = kernel = sockets = undefined;
});

interface HeldKernel {
  /** answers of the operations the kernel holds, in the order they came */
  held: ((value: string) => void)[];
  /** how many times each mutation reached it */
  mutations: number;
  /** how many events of `flood` it has sent */
  flooded: number;
  ssh: Client;
  client: RemoteClient;
}

async function heldKernelThroughSsh(answerTimeoutMs?: number): Promise<HeldKernel> {
  const state: Omit<HeldKernel, 'ssh' | 'client'> = { held: [], mutations: 0, flooded: 0 };
  const hold = () => new Promise<string>((resolve) => state.held.push(resolve));
  kernel = createServer();
  sockets = new WebSocketServer({ server: kernel, path: '/graphql' });
  useServer(
    {
      schema: buildSchema('type Query { version: String huge: String } type Mutation { act: String } type Subscription { flood: Int }'),
      roots: {
        query: { version: hold, huge: () => 'x'.repeat(65 * 2 ** 20) },
        subscription: {
          flood: async function* () {
            for (let i = 0; i < FLOOD; i++) {
              yield { flood: i };
              state.flooded++;
            }
          },
        },
        mutation: {
          act: () => {
            state.mutations++;
            return hold();
          },
        },
      },
    },
    sockets,
  );
  await new Promise<void>((resolve) => kernel!.listen(0, '127.0.0.1', resolve));
  const port = (kernel.address() as { port: number }).port;
  server = await startSsh2Server({ authorizedKey: keys.public });
  const ssh = new Client();
  const hostKey = server.hostKey.blob;
  await new Promise<void>((resolve, reject) => {
    ssh.once('ready', resolve).once('error', reject);
    ssh.connect({ host: '127.0.0.1', port: server!.port, username: 'me', privateKey: keys.private, hostVerifier: (key: Buffer) => key.equals(hostKey) });
  });
  return Object.assign(state, { ssh, client: new RemoteClient(new TunnelAgent(ssh, port), port, 'token', answerTimeoutMs) });
}

describe('operations to a remote kernel through its SSH tunnel', () => {
  it('has at most eight on their way at once, the rest waiting their turn', async () => {
    const remote = await heldKernelThroughSsh();
    const asked = Array.from({ length: 12 }, () => remote.client.query('{ version }').catch((err: Error) => err));
    await until(() => remote.held.length === 8, 'eight operations at the kernel');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(remote.held.length).toBe(8);
    for (const answer of remote.held.splice(0)) answer('1');
    await until(() => remote.held.length === 4, 'the four that waited');
    for (const answer of remote.held.splice(0)) answer('1');
    expect(await Promise.all(asked)).toEqual(Array(12).fill({ version: '1' }));
    remote.client.close();
  });

  it('gives an operation one deadline, its wait for a place included, so hung operations ahead never hold it longer', async () => {
    const remote = await heldKernelThroughSsh(1_000);
    const asked = Array.from({ length: 9 }, () =>
      remote.client.query('{ version }').then(
        () => 'answered',
        (err: Error) => err.message,
      ),
    );
    const outcomes = await Promise.all(asked);
    expect(outcomes.slice(0, 8)).toEqual(Array(8).fill('the remote kernel did not answer within 1 s'));
    expect(outcomes[8]).toBe('the remote kernel did not answer within 1 s: the operations before this one were still running');
    // the ninth was never sent: its time ran out while the eight held the kernel
    expect(remote.held.length).toBe(8);
    remote.client.close();
  });

  it('ends a subscription whose events come faster than they are read, once a thousand wait', async () => {
    const remote = await heldKernelThroughSsh();
    const events = remote.client.stream<{ flood: number }>('subscription { flood }', {});
    await until(() => remote.flooded >= FLOOD - 1, 'the kernel sending every event');
    await new Promise((resolve) => setTimeout(resolve, 300)); // the last of them on their way through SSH
    const read: number[] = [];
    const reading = (async () => {
      for await (const event of events) read.push(event.flood);
    })();
    await expect(reading).rejects.toThrow('the remote kernel sent more than 1000 events faster than they were read');
    expect(read).toEqual(Array.from({ length: 1000 }, (_, i) => i));
    remote.client.close();
  });

  it('pings past a full queue: slow answers are no sign of a kernel gone', async () => {
    const remote = await heldKernelThroughSsh();
    const asked = Array.from({ length: 10 }, () => remote.client.query('{ version }').catch((err: Error) => err));
    await until(() => remote.held.length === 8, 'eight operations at the kernel');
    expect(await remote.client.ping()).toBeGreaterThan(0);
    for (const answer of remote.held.splice(0)) answer('1');
    await until(() => remote.held.length === 2, 'the two that waited');
    for (const answer of remote.held.splice(0)) answer('1');
    await Promise.all(asked);
    remote.client.close();
  });

  it('fails every operation, those waiting included, when the SSH connection drops under them', async () => {
    const remote = await heldKernelThroughSsh();
    const asked = Array.from({ length: 12 }, () =>
      remote.client.query('{ version }').then(
        () => 'answered',
        (err: Error) => err.message,
      ),
    );
    await until(() => remote.held.length === 8, 'eight operations at the kernel');
    await server!.close(); // the link drops: the SSH server's sockets are gone
    const outcomes = await Promise.all(asked);
    expect(outcomes).toHaveLength(12);
    expect(outcomes.every((o) => o !== 'answered' && o.length > 0)).toBe(true);
    remote.client.close();
  });

  it('gives no answer, not an empty one, to an operation cut off when the link is closed', async () => {
    const remote = await heldKernelThroughSsh();
    const asked = remote.client.query('{ version }').catch((err: Error) => err);
    await until(() => remote.held.length === 1, 'the query at the kernel');
    remote.client.close();
    const outcome = await asked;
    expect(outcome).toBeInstanceOf(Error);
    expect(outcome).not.toBeInstanceOf(RemoteAnswerError);
  });

  it('refuses an answer over 64 MiB, saying so, and reaches the kernel again after', async () => {
    const remote = await heldKernelThroughSsh();
    await expect(remote.client.query('{ huge }')).rejects.toThrow(/^sent an answer over 64 MiB, more than the hub takes from a host/);
    const again = remote.client.query('{ version }');
    await until(() => remote.held.length === 1, 'the next query at the kernel');
    remote.held[0]('1');
    expect(await again).toEqual({ version: '1' });
    remote.client.close();
  });

  it('refuses an operation over the 1 MiB a kernel takes in one message, and keeps the socket for the rest', async () => {
    const remote = await heldKernelThroughSsh();
    const held = remote.client.query('{ version }');
    await until(() => remote.held.length === 1, 'the query at the kernel');
    const big = await remote.client.query('{ version }', { padding: 'x'.repeat(2 ** 20) }).catch((err: RemoteAnswerError) => err);
    expect(big).toMatchObject({ code: 'BAD_USER_INPUT', message: expect.stringMatching(/at most 1 MiB/) });
    remote.held[0]('3');
    expect(await held).toEqual({ version: '3' });
    remote.client.close();
  });

  it('never sends a mutation twice when the connection closes under it, and reaches the kernel again after', async () => {
    const remote = await heldKernelThroughSsh();
    const acted = remote.client.query('mutation { act }').then(
      () => 'answered',
      (err: Error) => err.message,
    );
    await until(() => remote.held.length === 1, 'the mutation at the kernel');
    for (const socket of sockets!.clients) socket.terminate(); // the kernel's end goes, the SSH link stays
    expect(await acted).toMatch(/connection closed/);
    const again = remote.client.query('{ version }');
    await until(() => remote.held.length === 2, 'the next query at the kernel');
    remote.held[1]('2');
    expect(await again).toEqual({ version: '2' });
    expect(remote.mutations).toBe(1);
    remote.client.close();
  });
});
