import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, type ClientRequestArgs } from 'node:http';
import { connect as tcpConnect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { parseLinkedHost } from '../../federation/hosts-config';
import { RemoteClient } from '../../federation/remote-client';
import { reachKernel } from '../../federation/remote-kernel';
import { connectSsh } from '../../federation/ssh-connect';
import { resolveSshTarget } from '../../federation/ssh-target';
import { TunnelAgent } from '../../federation/tunnel';
import { graphql } from '../../web/src/lib/graphql';
import { configureRemote, LOOM_COMMAND } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { ensureCorpus } from './corpus';
import { type KernelProcess, postGql, startKernelProcess } from './kernel-process';

// `npx tsx test/bench/federation.ts --runs 3`: the federation figures in docs/performance.md.
// Every part is real and in its own process: an OpenSSH sshd on a loopback port, remote kernels
// (`loom up`) it reaches, and a hub (`loom up` with a temp HOME holding the key and known_hosts)
// linking them over ssh2. This process is only the client, over keep-alive HTTP and graphql-ws,
// asking the same thing of a remote kernel directly and through the hub, side by side.
//
// Each run starts fresh kernels and a fresh hub (the sshd is shared) and measures:
//   1. one query hop: `session` and a small `transcript` page, direct vs through the hub;
//   2. Nagle: eight concurrent queries through the hub over one tunnel;
//   3. merged `sessions(first: 50)` over three remote kernels vs one kernel alone, and vs a
//      second hub linking only one of them, with the hubs answering from the pages they keep
//      (nothing changed) and with every host asked;
//   4. a line appended on a remote → a `sessionStream` subscriber, direct vs through the hub.
// 1 and 2 also go through a tunnel of this process's own, opened with the hub's code
// (federation/: the hub's graphql-ws socket in an SSH channel), to tell what the SSH hop costs
// from what the hub's GraphQL work costs, and through a byte relay process (what one more process
// in the path costs at the least) and a minimal proxy over the same SSH code (the least any hub
// could cost: HTTP in, the hub's socket out, nothing else); 2 also
// through a tunnel on an SSH connection that never ran a command, where sshd leaves Nagle on.

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '3' },
    sessions: { type: 'string', default: '300' },
    requests: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '50' },
    merges: { type: 'string', default: '200' },
    appends: { type: 'string', default: '200' },
  },
});
const RUNS = Number(values.runs);
const SESSIONS = Number(values.sessions);
const REQUESTS = Number(values.requests);
const ROUNDS = Number(values.rounds);
const MERGES = Number(values.merges);
const APPENDS = Number(values.appends);
const CONCURRENCY = 8;
const APPEND_GAP_MS = 20;
const ALIASES = ['r1', 'r2', 'r3'];
const REPO = join(import.meta.dirname, '..', '..');

const SESSION = `query($id: ID!) { session(id: $id) { id name turnCount } }`;
const TRANSCRIPT = `query($id: ID!) { transcript(sessionId: $id, limit: 20) { maxSequence entries { id sequence type promptLine } } }`;
const SESSIONS_PAGE = `{ sessions(first: 50) { nodes { id name updatedAt } } }`;
/** The same page under a filter every session passes, asked with a new `since` each time: the hub can keep nothing */
const SESSIONS_SINCE = `query($since: DateTime) { sessions(first: 50, filter: { updatedSince: $since }) { nodes { id name updatedAt } } }`;
const everSince = (i: number) => ({ since: new Date(Date.UTC(2000, 0, 1) + i).toISOString() });
const LINK = graphql(`mutation($target: String!, $name: String) {
  linkHost(target: $target, name: $name) { name status { state reason message } } }`);

// ---------------------------------------------------------------------------------------------
// Statistics and tables

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const p50 = (xs: number[]) => pct(xs, 50);
const p99 = (xs: number[]) => pct(xs, 99);
const max = (xs: number[]) => Math.max(...xs);
const ms = (n: number, digits = 2) => n.toFixed(digits);

async function timed(f: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await f();
  return performance.now() - started;
}

function table(title: string, head: string[], rows: (string | number)[][]): string {
  const align = head.map((_, i) => (i === 0 ? '---' : '---:'));
  return [`### ${title}`, '', `| ${head.join(' | ')} |`, `|${align.join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The world of one run: three remote kernels over one synthetic corpus, a fourth following a
// live transcript, and a hub reaching them all through the one sshd under different ~/.ssh/config
// aliases (linkHost replaces a host linked with the same target, so each needs its own). A second
// hub links the first remote alone: the merge over one host, beside the merge over three.

interface World {
  hub: KernelProcess;
  hubOfOne: KernelProcess;
  remotes: KernelProcess[];
  live: KernelProcess;
  liveFile: string;
  close(): Promise<void>;
}

async function startWorld(sshd: TestSshd, corpus: string): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-fed-'));
  const sub = (name: string) => {
    mkdirSync(join(dir, name), { recursive: true, mode: 0o700 });
    return join(dir, name);
  };
  const liveFile = join(sub('live-projects/-bench'), 'live.jsonl');
  writeFileSync(liveFile, line(prompt('r0', null, 'a live session')));
  const started: KernelProcess[] = [];
  const start = async (options: Parameters<typeof startKernelProcess>[0]) => {
    const kernel = await startKernelProcess(options);
    started.push(kernel);
    return kernel;
  };
  const close = async () => {
    await Promise.all(started.map((k) => k.stop()));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [remotes, live, hub, hubOfOne] = await Promise.all([
      Promise.all(ALIASES.map((_, i) => start({ name: `remote${i + 1}`, projects: corpus, stateDir: sub(`remote${i + 1}`) }))),
      start({ name: 'remote-live', projects: join(dir, 'live-projects'), stateDir: sub('remote-live') }),
      start({ name: 'hub', projects: sub('hub-projects'), stateDir: sub('hub'), home: sshd.home }),
      start({ name: 'hub-of-one', projects: sub('hub-of-one-projects'), stateDir: sub('hub-of-one'), home: sshd.home }),
    ]);
    return { hub, hubOfOne, remotes, live, liveFile, close };
  } catch (err) {
    await close();
    throw err;
  }
}

async function link(hub: KernelProcess, alias: string, remote: KernelProcess): Promise<void> {
  configureRemote(hub, { name: alias, target: alias, stateDir: remote.stateDir });
  const { linkHost } = await hub.gql(LINK, { target: alias, name: alias });
  if (linkHost.status?.state !== 'UP') throw new Error(`linking ${alias} failed: ${JSON.stringify(linkHost.status)}`);
}

// ---------------------------------------------------------------------------------------------
// Three ways to ask the first remote kernel: directly, through a tunnel of this process's own
// (the SSH hop alone), and through the hub. Each path names the session by its own id.

interface Path {
  name: string;
  ask(query: string, variables: Record<string, unknown>): Promise<unknown>;
  /** the session's id on this path */
  id: string;
}

function connect(sshd: TestSshd, alias: string) {
  const target = resolveSshTarget(alias, { configText: readFileSync(join(sshd.home, '.ssh', 'config'), 'utf8'), home: sshd.home, localUser: sshd.user });
  return connectSsh({ target, knownHosts: [join(sshd.home, '.ssh', 'known_hosts')], agent: undefined, acceptNew: false, keepaliveMs: 5_000 });
}

/** A way to the remote kernel the bench opened for itself. */
interface OwnPath {
  ask(query: string, variables: Record<string, unknown>): Promise<unknown>;
  close(): void;
}

/** Connects and reaches the remote kernel exactly as the hub does (federation/), from this process. */
async function openOwnTunnel(sshd: TestSshd, alias: string, remote: KernelProcess): Promise<OwnPath> {
  const ssh = await connect(sshd, alias);
  const kernel = await reachKernel(ssh, parseLinkedHost({ name: alias, target: alias, command: LOOM_COMMAND, stateDir: remote.stateDir }));
  return {
    ask: (query, variables) => kernel.client.query(query, variables),
    close() {
      kernel.lists.close();
      kernel.client.close();
      ssh.end();
    },
  };
}

/**
 * The same tunnel on an SSH connection that never ran a command. OpenSSH's sshd turns Nagle off
 * on its socket only when the first session starts (ssh_packet_set_interactive), which the hub's
 * `loom status` does; this path shows what a tunnel opened without it would cost.
 */
async function openBareTunnel(sshd: TestSshd, alias: string, remote: KernelProcess): Promise<OwnPath> {
  const ssh = await connect(sshd, alias);
  const client = new RemoteClient(new TunnelAgent(ssh, remote.port), remote.port, remote.token);
  return {
    ask: (query, variables) => client.query(query, variables),
    close() {
      client.close();
      ssh.end();
    },
  };
}

/**
 * A process standing between the bench and the remote kernel, which prints the port it listens on,
 * asked over keep-alive HTTP as the remote kernel is on the direct path, with its connections
 * made to that port instead.
 */
async function openInBetween(args: string[], remote: KernelProcess): Promise<OwnPath> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], cwd: REPO });
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));
  class InBetween extends Agent {
    override createConnection(_options: ClientRequestArgs) {
      return tcpConnect(port, '127.0.0.1').setNoDelay(true);
    }
  }
  const agent = new InBetween({ keepAlive: true, maxSockets: 8 });
  return {
    ask: async (query, variables) => (await postGql(remote.url, remote.token, agent, query, variables)).data,
    close() {
      agent.destroy();
      child.kill();
    },
  };
}

/**
 * The cheapest hub there could be: a process that copies bytes both ways between a loopback port
 * and the remote kernel's, parsing nothing. What it adds is what one more process in the path
 * costs on this machine, before any work of the hub's own.
 */
function openByteRelay(remote: KernelProcess): Promise<OwnPath> {
  const relay = `const net = require('node:net');
    const server = net.createServer((client) => {
      const kernel = net.connect(${remote.port}, '127.0.0.1');
      client.setNoDelay(true); kernel.setNoDelay(true);
      client.pipe(kernel).pipe(client);
      client.on('error', () => kernel.destroy()); kernel.on('error', () => client.destroy());
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  return openInBetween(['-e', relay], remote);
}

/** The least hub there could be over the hub's own SSH code (test/bench/minimal-proxy.ts). */
function openMinimalProxy(sshd: TestSshd, alias: string, remote: KernelProcess): Promise<OwnPath> {
  return openInBetween(
    ['--import', 'tsx', join(REPO, 'test', 'bench', 'minimal-proxy.ts'), sshd.home, sshd.user, alias, remote.stateDir, LOOM_COMMAND],
    remote,
  );
}

// 1. One query hop: the paths interleaved, request by request, so all see the same machine.

interface HopResult {
  query: string;
  latencies: Map<string, number[]>;
  /** the hub's Server-Timing for each measured request: its own work, and the host's answer as it waited */
  hubTimings: ServerTiming[];
}

interface ServerTiming {
  hub: number;
  remote: number;
}

/** What the hub's fast path says of one answer. */
function serverTiming(header: string | null): ServerTiming | null {
  const m = /hub;dur=([\d.]+), remote;dur=([\d.]+)/.exec(header ?? '');
  return m ? { hub: Number(m[1]), remote: Number(m[2]) } : null;
}

async function measureHop(paths: Path[], label: string, query: string, hubTimings: ServerTiming[]): Promise<HopResult> {
  const latencies = new Map(paths.map((p) => [p.name, [] as number[]]));
  for (let i = 0; i < 100; i++) for (const p of paths) await p.ask(query, { id: p.id });
  hubTimings.length = 0;
  for (let i = 0; i < REQUESTS; i++) {
    for (const p of paths) latencies.get(p.name)!.push(await timed(() => p.ask(query, { id: p.id })));
  }
  return { query: label, latencies, hubTimings: hubTimings.splice(0) };
}

// 2. Eight concurrent queries at a time: through a tunnel they share one SSH connection (and
//    the one graphql-ws socket in it), where a Nagle stall shows as ~40 ms.

async function measureBursts(paths: Path[]): Promise<Map<string, number[]>> {
  const burst = (p: Path) => Promise.all(Array.from({ length: CONCURRENCY }, (_, i) => timed(() => p.ask(i % 2 ? TRANSCRIPT : SESSION, { id: p.id }))));
  for (let i = 0; i < 5; i++) for (const p of paths) await burst(p);
  const latencies = new Map(paths.map((p) => [p.name, [] as number[]]));
  for (let i = 0; i < ROUNDS; i++) for (const p of paths) latencies.get(p.name)!.push(...(await burst(p)));
  return latencies;
}

// ---------------------------------------------------------------------------------------------
// 3. The first page of sessions: one kernel alone vs the hub merging three like it, and vs a
//    hub merging one like it (what the hub costs before it asks more than one host).

interface MergeResult {
  hubSessions: number;
  aloneSessions: number;
  alone: number[];
  /** the three remote kernels asked directly, at once: what their answers cost on this machine */
  threeAtOnce: number[];
  /** the hub answering from the pages it keeps while nothing changes on the remotes */
  hub: number[];
  /** the hub asking every remote each time, as when all of them change between requests */
  hubAsking: number[];
  /** the same two of the hub that links only the first remote */
  hubOfOne: number[];
  hubOfOneAsking: number[];
}

async function measureMerge(world: World): Promise<MergeResult> {
  const [remote] = world.remotes;
  const count = graphql(`{ sessions(first: 1) { totalCount } }`);
  const hubSessions = (await world.hub.gql(count)).sessions.totalCount;
  const aloneSessions = (await remote.gql(count)).sessions.totalCount;
  const three = () => Promise.all(world.remotes.map((r) => r.gql(SESSIONS_PAGE)));
  for (let i = 0; i < 20; i++) {
    await remote.gql(SESSIONS_PAGE);
    await three();
    for (const hub of [world.hub, world.hubOfOne]) {
      await hub.gql(SESSIONS_PAGE);
      await hub.gql(SESSIONS_SINCE, everSince(MERGES + i));
    }
  }
  const alone: number[] = [];
  const threeAtOnce: number[] = [];
  const hub: number[] = [];
  const hubAsking: number[] = [];
  const hubOfOne: number[] = [];
  const hubOfOneAsking: number[] = [];
  for (let i = 0; i < MERGES; i++) {
    alone.push(await timed(() => remote.gql(SESSIONS_PAGE)));
    threeAtOnce.push(await timed(three));
    hubOfOne.push(await timed(() => world.hubOfOne.gql(SESSIONS_PAGE)));
    hubOfOneAsking.push(await timed(() => world.hubOfOne.gql(SESSIONS_SINCE, everSince(i))));
    hub.push(await timed(() => world.hub.gql(SESSIONS_PAGE)));
    hubAsking.push(await timed(() => world.hub.gql(SESSIONS_SINCE, everSince(i))));
  }
  return { hubSessions, aloneSessions, alone, threeAtOnce, hub, hubAsking, hubOfOne, hubOfOneAsking };
}

// ---------------------------------------------------------------------------------------------
// 4. Append → subscriber: one line at a time on the live remote, timed until a graphql-ws
//    subscriber holds it; first subscribed to the remote kernel itself, then through the hub.

/** The live transcript: its file, how many lines were appended, and the newest line's uuid. */
interface LiveTranscript {
  file: string;
  appended: number;
  last: string;
}

async function measureAppends(kernel: KernelProcess, sessionId: string, live: LiveTranscript): Promise<number[]> {
  const client = kernel.ws();
  const arrived = new Map<string, number>();
  let notify = () => {};
  const iterator = client.iterate<{ sessionStream: { atoms: { uuid: string }[] } }>({
    query: `subscription($id: ID!) { sessionStream(sessionId: $id) { atoms { uuid } } }`,
    variables: { id: sessionId },
  });
  const consume = (async () => {
    for await (const r of iterator) {
      const now = performance.now();
      if (r.errors) throw new Error(r.errors[0].message);
      for (const a of r.data!.sessionStream.atoms) arrived.set(a.uuid, now);
      notify();
    }
  })();
  const until = (uuid: string) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${uuid} never arrived at the ${kernel.name} subscriber`)), 10_000);
      notify = () => {
        if (!arrived.has(uuid)) return;
        clearTimeout(timer);
        resolve();
      };
      notify();
    });
  await until(live.last); // the snapshot holds the newest line
  const latencies: number[] = [];
  for (let i = 0; i < APPENDS; i++) {
    const uuid = `a${++live.appended}`;
    const record = live.appended % 2 ? assistant(uuid, live.last, [say(`reply ${uuid}`)], 'end_turn') : prompt(uuid, live.last, `prompt ${uuid}`);
    const sent = performance.now();
    appendFileSync(live.file, line(record));
    live.last = uuid;
    await until(uuid);
    latencies.push(arrived.get(uuid)! - sent);
    await new Promise((r) => setTimeout(r, APPEND_GAP_MS));
  }
  await iterator.return?.();
  await consume;
  await client.dispose();
  return latencies;
}

// ---------------------------------------------------------------------------------------------

interface RunResult {
  /** the machine's 1-minute load average before and after the run (other work shares it) */
  load: [number, number];
  hops: HopResult[];
  bursts: Map<string, number[]>;
  merge: MergeResult;
  appendDirect: number[];
  appendHub: number[];
}

async function run(sshd: TestSshd, corpus: string): Promise<RunResult> {
  const loadBefore = loadavg()[0];
  const world = await startWorld(sshd, corpus);
  const tunnels: OwnPath[] = [];
  try {
    // three remote kernels first, for the merge alone
    for (const [i, alias] of ALIASES.entries()) await link(world.hub, alias, world.remotes[i]);
    await link(world.hubOfOne, ALIASES[0], world.remotes[0]);
    const merge = await measureMerge(world);
    await link(world.hub, 'live', world.live);

    // the most recently active session of the first remote, by its id there and by the hub's
    const [remote] = world.remotes;
    const [first] = (await remote.gql(graphql(`{ sessions(first: 1) { nodes { id } } }`))).sessions.nodes;
    const directId: string = first.id;
    const own = await openOwnTunnel(sshd, 'r1', remote);
    const bare = await openBareTunnel(sshd, 'r1', remote);
    const relay = await openByteRelay(remote);
    const proxy = await openMinimalProxy(sshd, 'r1', remote);
    tunnels.push(own, bare, relay, proxy);
    const hubTimings: ServerTiming[] = [];
    const paths: Path[] = [
      { name: 'direct', ask: (q, v) => remote.gql(q, v), id: directId },
      { name: 'byte relay', ask: relay.ask, id: directId },
      { name: 'minimal proxy over SSH', ask: proxy.ask, id: directId },
      { name: 'tunnel only', ask: own.ask, id: directId },
      {
        name: 'hub',
        async ask(q, v) {
          const { data, serverTiming: header } = await world.hub.timedGql(q, v);
          const timing = serverTiming(header);
          if (timing) hubTimings.push(timing);
          return data;
        },
        id: directId.replace(/^remote1:/, 'r1:'),
      },
    ];
    const hops = [
      await measureHop(paths, 'session(id) { id name turnCount }', SESSION, hubTimings),
      await measureHop(paths, 'transcript(limit: 20)', TRANSCRIPT, hubTimings),
    ];
    const bursts = await measureBursts([...paths, { name: 'tunnel, no command run first', ask: bare.ask, id: directId }]);
    for (const t of tunnels.splice(0)) t.close();

    const live: LiveTranscript = { file: world.liveFile, appended: 0, last: 'r0' };
    const appendDirect = await measureAppends(world.live, 'remote-live:live', live);
    const appendHub = await measureAppends(world.hub, 'live:live', live);
    return { load: [loadBefore, loadavg()[0]], hops, bursts, merge, appendDirect, appendHub };
  } finally {
    for (const t of tunnels) t.close();
    await world.close();
  }
}

const corpus = await ensureCorpus(SESSIONS * 50 * 1024, SESSIONS);
const sshd = await startSshd({
  sshConfig: ({ port, user, userKey }) =>
    `Host ${[...ALIASES, 'live'].join(' ')}\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ${userKey}\n`,
});
const results: RunResult[] = [];
try {
  for (let i = 1; i <= RUNS; i++) {
    results.push(await run(sshd, corpus));
    console.error(`run ${i} of ${RUNS} done`);
  }
} finally {
  await sshd.close();
}

const each = <T>(f: (r: RunResult, run: number) => T[]) => results.flatMap((r, i) => f(r, i + 1));
const load = (r: RunResult) => `${r.load[0].toFixed(1)} → ${r.load[1].toFixed(1)}`;

console.log(
  table(
    `1. One query hop, ${REQUESTS} sequential requests each over keep-alive HTTP (ms)`,
    [
      'run',
      'query',
      'direct p50',
      'p99',
      'byte relay p50',
      'tunnel only p50',
      'minimal proxy over SSH p50',
      'hub p50',
      'p99',
      'hub − direct at p50',
      'hub − minimal proxy',
    ],
    each((r, run) =>
      r.hops.map((h) => {
        const [direct, relay, tunnel, proxy, hub] = ['direct', 'byte relay', 'tunnel only', 'minimal proxy over SSH', 'hub'].map(
          (name) => h.latencies.get(name)!,
        );
        return [
          run,
          `\`${h.query}\``,
          ms(p50(direct)),
          ms(p99(direct)),
          ms(p50(relay)),
          ms(p50(tunnel)),
          ms(p50(proxy)),
          ms(p50(hub)),
          ms(p99(hub)),
          ms(p50(hub) - p50(direct)),
          ms(p50(hub) - p50(proxy)),
        ];
      }),
    ),
  ),
);
console.log();
console.log(
  table(
    `1b. The hub's own account of the same requests (its Server-Timing header, ms)`,
    ['run', 'query', 'answers', "hub's own work p50", 'p99', 'the host, as the hub waited: p50', 'p99', 'tunnel only p50 (the same host, from the bench)'],
    each((r, run) =>
      r.hops.map((h) => {
        const own = h.hubTimings.map((t) => t.hub);
        const waited = h.hubTimings.map((t) => t.remote);
        return [
          run,
          `\`${h.query}\``,
          h.hubTimings.length,
          ms(p50(own)),
          ms(p99(own)),
          ms(p50(waited)),
          ms(p99(waited)),
          ms(p50(h.latencies.get('tunnel only')!)),
        ];
      }),
    ),
  ),
);
console.log();
console.log(
  table(
    `2. ${CONCURRENCY} concurrent queries (session and transcript alternately), ${ROUNDS} rounds (ms)`,
    ['run', 'path', 'p50', 'p99', 'max', '≥ 40 ms'],
    each((r, run) =>
      [...r.bursts].map(([path, xs]) => [run, path, ms(p50(xs)), ms(p99(xs)), ms(max(xs)), `${xs.filter((x) => x >= 40).length} of ${xs.length}`]),
    ),
  ),
);
console.log();
console.log(
  table(
    `3. \`sessions(first: 50) { nodes { id name updatedAt } }\`, ${MERGES} sequential requests each (ms)`,
    [
      'run',
      'one kernel (sessions)',
      'p50',
      'p99',
      'three kernels at once, direct: p50',
      'hub over three (sessions)',
      'pages kept: p50',
      'p99',
      'hub ÷ one at p50',
      'every host asked: p50',
      'p99',
      'hub ÷ one at p50',
      'hub over one host, every host asked: p50',
      'hub over three ÷ hub over one, every host asked',
      'hub over one host, pages kept: p50',
    ],
    each((r, run) => {
      const m = r.merge;
      return [
        [
          run,
          m.aloneSessions,
          ms(p50(m.alone)),
          ms(p99(m.alone)),
          ms(p50(m.threeAtOnce)),
          m.hubSessions,
          ms(p50(m.hub)),
          ms(p99(m.hub)),
          ms(p50(m.hub) / p50(m.alone)),
          ms(p50(m.hubAsking)),
          ms(p99(m.hubAsking)),
          ms(p50(m.hubAsking) / p50(m.alone)),
          ms(p50(m.hubOfOneAsking)),
          ms(p50(m.hubAsking) / p50(m.hubOfOneAsking)),
          ms(p50(m.hubOfOne)),
        ],
      ];
    }),
  ),
);
console.log();
console.log(
  table(
    `4. Append on a remote → sessionStream subscriber, ${APPENDS} appends ${APPEND_GAP_MS} ms apart (ms)`,
    ['run', 'direct p50', 'p99', 'max', 'hub p50', 'p99', 'max'],
    each((r, run) => [
      [run, ms(p50(r.appendDirect)), ms(p99(r.appendDirect)), ms(max(r.appendDirect)), ms(p50(r.appendHub)), ms(p99(r.appendHub)), ms(max(r.appendHub))],
    ]),
  ),
);
console.log();
console.log(`load average (1 min) before → after each run, on ${cpus().length} cores: ${results.map(load).join('; ')}`);
