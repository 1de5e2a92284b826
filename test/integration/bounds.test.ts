import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { type KernelProcess, LOOM, startKernelProcess } from '../bench/kernel-process';
import { FAST_LINKS, FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { until } from '../helpers/wait';

// Bounds on the work operations do: one socket cannot take the kernel down, a query cannot hold
// more than its budget, a closed socket stops what it asked. Against real kernels over real
// WebSockets; the flood runs against a kernel in its own process, whose memory the OS reports.

/** Every session, its subagents, their turns, atoms and content: under the cost limit, huge at run time. */
const FLOOD = `{ sessions(first: 500) { nodes { subagents { turns { atoms { content { __typename } } } } turns { atoms { content { __typename } } } } } }`;
const HONEST = `{ kernel { version } }`;

interface Settled {
  order: number;
  code: string | null;
}

/** Sends one operation on a graphql-ws client; settles with the order it ended in, and its error code if any. */
function send(client: Client, query: string, counter: { n: number }): Promise<Settled> {
  return new Promise((resolve) => {
    let code: string | null = null;
    client.subscribe(
      { query },
      {
        next: (result) => (code = (result.errors?.[0]?.extensions?.code as string | undefined) ?? code),
        error: (err) => resolve({ order: ++counter.n, code: (Array.isArray(err) ? err[0]?.extensions?.code : null) ?? 'SOCKET' }),
        complete: () => resolve({ order: ++counter.n, code }),
      },
    );
  });
}

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

describe('a flood of heavy queries on one socket', () => {
  let kernel: KernelProcess;
  let stateDir: string;
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'loom-bounds-'));
    kernel = await startKernelProcess({ name: 'flood', projects: FIXTURES, stateDir });
  });
  afterAll(async () => {
    await kernel?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('runs a few at a time, refuses the rest, stays under 1 GB, and answers an honest client before the flood ends', { timeout: 120_000 }, async () => {
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(kernel.pid))), 50);
    const counter = { n: 0 };
    const flooder = kernel.ws();
    const flood = Array.from({ length: 400 }, () => send(flooder, FLOOD, counter));
    const honest = send(kernel.ws(), HONEST, counter);
    const results = await Promise.all(flood);
    const answered = await honest;
    clearInterval(sampler);

    expect(answered.code).toBeNull();
    expect(answered.order).toBeLessThan(Math.max(...results.map((r) => r.order)));
    const refused = results.filter((r) => r.code === 'UNAVAILABLE').length;
    expect(refused).toBeGreaterThanOrEqual(396);
    expect(results.filter((r) => r.code === 'SOCKET')).toEqual([]);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(2 ** 30);
    // alive, and answering as before
    expect(await kernel.gql(HONEST)).toMatchObject({ kernel: { version: expect.any(String) } });
  });
});

describe('an operation’s budget', () => {
  // its own process: a refused answer leaves promises graphql-js no longer waits for, which
  // `loom up` logs (a test runner would count them as failures)
  let kernel: KernelProcess;
  let stateDir: string;
  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'loom-budget-'));
    kernel = await startKernelProcess({ name: 'budget', projects: FIXTURES, stateDir, args: ['--limit', 'values=2000', '--limit', 'bytes=200000'] });
  });
  afterAll(async () => {
    await kernel?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });
  const refusal = (query: string, variables?: Record<string, unknown>) =>
    kernel.gql(query, variables).then(
      () => null,
      (err: Error) => err.message,
    );

  it('refuses an answer past its values as it is built, with what to do', async () => {
    expect(await refusal(`{ sessions(first: 50) { nodes { turns { atoms { uuid } } } } }`)).toMatch(/more than 2,000 values: ask for less/);
  });

  it('refuses an answer that would read more transcript bytes than its budget', async () => {
    const { sessions } = await kernel.gql(graphql(`{ sessions(first: 1) { nodes { id } } }`));
    const query = `query($id: ID!) { transcript(sessionId: $id, limit: 1000) { entries { content { __typename } } } }`;
    expect(await refusal(query, { id: sessions.nodes[0].id })).toMatch(/MiB of transcripts: ask for fewer atoms' content at once/);
  });

  it('answers what fits its budget, and stays up after the refusals', async () => {
    const { sessions } = await kernel.gql(graphql(`{ sessions(first: 5) { nodes { id name } } }`));
    expect(sessions.nodes).toHaveLength(5);
  });
});

describe('operations at once', () => {
  let kernel: TestKernel;
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES, { limits: { operations: 2, socketOperations: 2 } });
  });
  afterAll(() => kernel.close());

  it('refuses an operation past the kernel’s bound with UNAVAILABLE, and answers again once one ends', async () => {
    const counter = { n: 0 };
    const [a, b] = [kernel.ws(), kernel.ws()];
    const running = [send(a, FLOOD, counter), send(a, FLOOD, counter)];
    // the two heavy ones hold the kernel's two places: a third, on another socket, is turned away
    const third = await send(b, HONEST, counter);
    expect(third.code).toBe('UNAVAILABLE');
    await Promise.all(running);
    expect((await send(b, HONEST, counter)).code).toBeNull();
  });

  it('stops the operations of a socket that closes, so their places come free before they could have finished', async () => {
    const counter = { n: 0 };
    // how long one heavy operation takes here, run to its end
    const started = performance.now();
    await send(kernel.ws(), FLOOD, counter);
    const whole = performance.now() - started;

    const leaving = kernel.ws();
    const left = [send(leaving, FLOOD, counter), send(leaving, FLOOD, counter)];
    const closedAt = performance.now();
    await leaving.dispose();
    await Promise.all(left);
    const other = kernel.ws();
    await until(async () => (await send(other, HONEST, counter)).code === null, 'a place free again', 30_000);
    expect(performance.now() - closedAt).toBeLessThan(whole);
  });
});

describe('a flood through a hub', () => {
  // the host in its own process behind a real sshd; the hub links it from its hosts.json
  let sshd: TestSshd;
  let host: KernelProcess;
  let hub: TestKernel;
  let hostState: string;
  let hubState: string;
  beforeAll(async () => {
    sshd = await startSshd();
    hostState = mkdtempSync(join(tmpdir(), 'loom-bounds-host-'));
    host = await startKernelProcess({ name: 'gpubox', projects: FIXTURES, stateDir: hostState });
    hubState = mkdtempSync(join(tmpdir(), 'loom-bounds-hub-'));
    const link = { name: 'gpu', target: `${sshd.user}@127.0.0.1:${sshd.port}`, trust: 'directed', command: `${process.execPath} ${LOOM}`, stateDir: hostState };
    writeFileSync(join(hubState, 'hosts.json'), JSON.stringify({ hosts: [link] }));
    hub = await startTestKernel(mkdtempSync(join(tmpdir(), 'loom-bounds-hub-projects-')), {
      hostName: 'laptop',
      stateDir: hubState,
      federation: { home: sshd.home, ...FAST_LINKS },
    });
    await until(
      async () => (await hub.gql(graphql(`{ hosts { name status { state } } }`))).data.hosts.find((h) => h.name === 'gpu')?.status?.state === 'UP',
      'the host linked',
    );
  }, 60_000);
  afterAll(async () => {
    await hub?.close();
    await host?.stop();
    await sshd?.close();
    for (const dir of [hostState, hubState]) rmSync(dir, { recursive: true, force: true });
  });

  it('keeps answering a second hub client while one floods the host through it, and the host stays up', { timeout: 120_000 }, async () => {
    const heavy = `{ transcript(sessionId: "gpu:4d5611e5-241a-462a-8d15-5122611a9569", limit: 1000) { entries { content { __typename } } } }`;
    const counter = { n: 0 };
    const flooder = hub.ws();
    const flood = Array.from({ length: 400 }, () => send(flooder, heavy, counter));
    const second = send(hub.ws(), `{ session(id: "gpu:29ccd257-68b1-427f-ae5f-6524b7cb6f20") { name } }`, counter);
    const results = await Promise.all(flood);
    const answered = await second;
    expect(answered.code).toBeNull();
    expect(answered.order).toBeLessThan(Math.max(...results.map((r) => r.order)));
    expect(results.filter((r) => r.code === 'UNAVAILABLE').length).toBeGreaterThanOrEqual(396);
    expect(results.filter((r) => r.code === null).length).toBeGreaterThan(0);
    expect(await host.gql(HONEST)).toMatchObject({ kernel: { version: expect.any(String) } });
  });
});
