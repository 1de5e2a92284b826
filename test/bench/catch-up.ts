import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { graphql } from '../../web/src/lib/graphql';
import { configureRemote } from '../helpers/kernel';
import { startSshd } from '../helpers/sshd';
import { ensureCorpus } from './corpus';
import { startKernelProcess } from './kernel-process';

// `npx tsx test/bench/catch-up.ts --sessions 2000,10000 --runs 3`: the catch-up figures in
// docs/performance.md (Federation). A hub subscriber has sessionsChanged and feedChanged open
// when a remote kernel with N sessions is linked: the host catches both streams up with every
// session. Measured from the link's answer until each stream has held every session, and how
// many events came (each session exactly once is right). Every part is its own process: the
// remote kernel and the hub (`loom up`), and an OpenSSH sshd between them.

const { values } = parseArgs({
  options: {
    sessions: { type: 'string', default: '2000,10000' },
    runs: { type: 'string', default: '3' },
  },
});
const SIZES = values.sessions.split(',').map(Number);
const RUNS = Number(values.runs);
const LINK = graphql(`mutation { linkHost(target: "remote", name: "remote") { status { state message } } }`);
const STREAMS = {
  sessions: `subscription { sessionsChanged { sessionId session { id name updatedAt } } }`,
  feed: `subscription { feedChanged { sessionId goals { id title status } } }`,
};

interface Result {
  sessions: number;
  run: number;
  linkMs: number;
  /** per stream: ms from the link's answer until every session was held, and events received */
  streams: Record<keyof typeof STREAMS, { ms: number; events: number }>;
}

async function once(sshd: Awaited<ReturnType<typeof startSshd>>, sessions: number, run: number): Promise<Result> {
  const projects = await ensureCorpus(sessions * 4 * 1024, sessions);
  const dir = mkdtempSync(join(tmpdir(), 'loom-bench-catch-up-'));
  const sub = (name: string) => {
    mkdirSync(join(dir, name), { recursive: true, mode: 0o700 });
    return join(dir, name);
  };
  const [remote, hub] = await Promise.all([
    startKernelProcess({ name: 'remote', projects, stateDir: sub('remote') }),
    startKernelProcess({ name: 'hub', projects: sub('hub-projects'), stateDir: sub('hub'), home: sshd.home }),
  ]);
  try {
    const seen = { sessions: new Set<string>(), feed: new Set<string>() };
    const events = { sessions: 0, feed: 0 };
    const whole = { sessions: 0, feed: 0 };
    const client = hub.ws();
    for (const stream of ['sessions', 'feed'] as const) {
      client.subscribe(
        { query: STREAMS[stream] },
        {
          next: (r) => {
            events[stream]++;
            seen[stream].add((Object.values(r.data as object)[0] as { sessionId: string }).sessionId);
            if (seen[stream].size === sessions && !whole[stream]) whole[stream] = performance.now();
          },
          error: (e) => console.error(stream, 'ended', e),
          complete: () => {},
        },
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500)); // both subscriptions set up on the hub
    const asked = performance.now();
    configureRemote(hub, { name: 'remote', target: 'remote', stateDir: join(dir, 'remote') });
    const { linkHost } = await hub.gql(LINK);
    if (linkHost.status?.state !== 'UP') throw new Error(`linking failed: ${JSON.stringify(linkHost.status)}`);
    const linked = performance.now();
    const deadline = linked + 60_000;
    while ((!whole.sessions || !whole.feed) && performance.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // anything sent twice arrives meanwhile
    const stream = (s: 'sessions' | 'feed') => ({ ms: whole[s] ? whole[s] - linked : NaN, events: events[s] });
    await client.dispose();
    return { sessions, run, linkMs: linked - asked, streams: { sessions: stream('sessions'), feed: stream('feed') } };
  } finally {
    await Promise.all([remote.stop(), hub.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}

const sshd = await startSshd({
  sshConfig: ({ port, user, userKey }) => `Host remote\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ${userKey}\n`,
});
const results: Result[] = [];
try {
  for (const sessions of SIZES) {
    for (let run = 1; run <= RUNS; run++) {
      results.push(await once(sshd, sessions, run));
      console.error(`${sessions} sessions, run ${run} of ${RUNS} done`);
    }
  }
} finally {
  await sshd.close();
}

console.log('| sessions on the host | run | link answered (ms) | sessionsChanged: all held after (ms) | events | feedChanged: all held after (ms) | events |');
console.log('|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  const { sessions: s, feed: f } = r.streams;
  console.log(`| ${r.sessions} | ${r.run} | ${r.linkMs.toFixed(0)} | ${s.ms.toFixed(0)} | ${s.events} | ${f.ms.toFixed(0)} | ${f.events} |`);
}
