import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseLinkedHost, saveLinkedHost } from '../../federation/hosts-config';
import { FIXTURES, LOOM_COMMAND, startTestKernel, type TestKernel } from '../helpers/kernel';
import { OVER_LIMIT_QUERIES } from '../helpers/over-limit-queries';
import { line, prompt } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { until } from '../helpers/wait';

// The compiled CLI (graphql bundled once, as its ES modules) serving GraphQL as a kernel and as a
// hub linking a host over SSH: queries, a mutation, a validation error, a subscription, GraphiQL.

const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');

/** the answer's data, loosely: each test reads the fields it asked for */
// biome-ignore lint/suspicious/noExplicitAny: the shapes are the queries' own
type Data = any;

interface Compiled {
  url: string;
  token: string;
  gql(query: string, variables?: Record<string, unknown>): Promise<{ data?: Data; errors?: { message: string; extensions?: { code?: string } }[] }>;
  child: ChildProcess;
  out: () => string;
}

async function upCompiled(projects: string, state: string, env: NodeJS.ProcessEnv = process.env): Promise<Compiled> {
  const child = spawn(process.execPath, [LOOM, 'up', '--port', '0', '--no-demo', '--projects', projects, '--state', state], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  await until(() => /http:\/\/127\.0\.0\.1:\d+\//.test(out), 'the link from loom up', 60_000);
  const url = /http:\/\/127\.0\.0\.1:\d+\//.exec(out)![0];
  const token = readFileSync(join(state, 'token'), 'utf8').trim();
  const gql = async (query: string, variables?: Record<string, unknown>) => {
    const res = await fetch(`${url}graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'x-loom-token': token },
      body: JSON.stringify({ query, variables }),
    });
    return res.json();
  };
  return { url, token, gql, child, out: () => out };
}

const stop = (c: Compiled | undefined) =>
  c &&
  new Promise<void>((resolve) => {
    if (c.child.exitCode !== null) return resolve();
    c.child.once('exit', () => resolve());
    c.child.kill('SIGTERM');
  });

describe('the compiled kernel', () => {
  let kernel: Compiled;
  let state: string;
  beforeAll(async () => {
    state = mkdtempSync(join(tmpdir(), 'loom-compiled-gql-'));
    kernel = await upCompiled(FIXTURES, state);
  }, 90_000);
  afterAll(async () => {
    await stop(kernel);
    rmSync(state, { recursive: true, force: true });
  });

  it('answers queries, a mutation, a validation error and a subscription', async () => {
    const q = await kernel.gql(`{ sessions(first: 3) { totalCount nodes { id turns { usage { outputTokens } } } } kernel { version } }`);
    expect(q.errors).toBeUndefined();
    expect(q.data.sessions.totalCount).toBeGreaterThan(0);
    const bad = await kernel.gql(`{ sessions { nope } }`);
    expect(bad.errors?.[0].message).toMatch(/Cannot query field "nope"/);
    const tag = await kernel.gql(`mutation { createTag(name: "review", color: "#aabbcc") { __typename } }`);
    expect(tag.errors).toBeUndefined();
    const client = createClient({
      url: `${kernel.url.replace('http', 'ws')}graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { token: kernel.token },
      retryAttempts: 0,
    });
    const frame = await new Promise<unknown>((resolve, reject) => {
      const dispose = client.subscribe(
        { query: `subscription { hostsChanged { name } }` },
        {
          next: (v) => {
            dispose();
            resolve(v);
          },
          error: reject,
          complete: () => undefined,
        },
      );
    });
    await client.dispose();
    expect(frame).toMatchObject({ data: { hostsChanged: expect.any(Array) } });
  }, 60_000);

  it("refuses queries over graphql-armor's limits, and suggests no field names", async () => {
    for (const [query, limit] of OVER_LIMIT_QUERIES) {
      const res = await kernel.gql(query);
      expect(res.errors?.[0]?.message).toMatch(limit);
      expect(res.data).toBeUndefined();
    }
    const typo = await kernel.gql(`{ sesions { totalCount } }`);
    expect(typo.errors?.[0]?.message).toMatch(/Cannot query field "sesions"/);
    expect(typo.errors?.[0]?.message).not.toMatch(/Did you mean/);
  }, 30_000);

  it('serves the GraphiQL page', async () => {
    const res = await fetch(`${kernel.url}graphql`, { headers: { accept: 'text/html', 'x-loom-token': kernel.token } });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/GraphiQL|graphiql/);
  }, 30_000);
});

describe('a compiled hub linking a host', () => {
  let sshd: TestSshd;
  let remote: TestKernel;
  let hub: Compiled;
  const dirs: string[] = [];
  const temp = (name: string) => {
    const d = mkdtempSync(join(tmpdir(), `loom-compiled-${name}-`));
    dirs.push(d);
    return d;
  };
  beforeAll(async () => {
    sshd = await startSshd();
    const remoteRoot = temp('gpu');
    mkdirSync(join(remoteRoot, '-home-dev-demo'));
    writeFileSync(join(remoteRoot, '-home-dev-demo', 'gpu1.jsonl'), line(prompt('gpu-p1', null, 'a session on gpu')));
    const remoteState = temp('gpu-state');
    remote = await startTestKernel(remoteRoot, { hostName: 'gpubox', stateDir: remoteState });
    const hubRoot = temp('hub');
    mkdirSync(join(hubRoot, '-home-dev-demo'));
    writeFileSync(join(hubRoot, '-home-dev-demo', 'hub1.jsonl'), line(prompt('hub-p1', null, 'a session on the hub')));
    const hubState = temp('hub-state');
    saveLinkedHost(hubState, parseLinkedHost({ name: 'gpu', target: `${sshd.user}@127.0.0.1:${sshd.port}`, stateDir: remoteState, command: LOOM_COMMAND }));
    hub = await upCompiled(hubRoot, hubState, { ...process.env, HOME: sshd.home });
  }, 120_000);
  afterAll(async () => {
    await stop(hub);
    await remote?.close();
    await sshd?.close();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('lists the host UP, and answers its sessions, turns and atoms through the hub', async () => {
    await until(
      async () =>
        (await hub.gql(`{ hosts { name status { state } } }`)).data?.hosts?.some(
          (h: { name: string; status: { state: string } | null }) => h.name === 'gpu' && h.status?.state === 'UP',
        ),
      'gpu UP',
      60_000,
    );
    const list = await hub.gql(`{ sessions(first: 50) { nodes { id name } } }`);
    expect(list.errors).toBeUndefined();
    const ids = list.data.sessions.nodes.map((n: { id: string }) => n.id);
    expect(ids).toContain('gpu:gpu1');
    expect(ids.some((id: string) => id.endsWith(':hub1'))).toBe(true);
    const one = await hub.gql(`query($id: ID!) { session(id: $id) { id turns { id usage { outputTokens } atoms { id } } } }`, { id: 'gpu:gpu1' });
    expect(one.errors).toBeUndefined();
    expect(one.data.session.id).toBe('gpu:gpu1');
    const bad = await hub.gql(`query($id: ID!) { session(id: $id) { id nope } }`, { id: 'gpu:gpu1' });
    expect(bad.errors?.[0].message).toMatch(/Cannot query field "nope"/);
  }, 90_000);
});
