import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphQLFormattedError } from 'graphql';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fingerprint } from '../../federation/known-hosts';
import { rotateToken } from '../../server/security/token';
import { VERSION } from '../../spoke/version';
import { type Enum, graphql, type ResultOf, type TadaDocumentNode } from '../../web/src/lib/graphql';
import { configureRemote, FAST_LINKS, iterate, LOOM_COMMAND, startTestKernel, type TestKernel } from '../helpers/kernel';
import { type LyingKernel, startLyingKernel } from '../helpers/lying-kernel';
import { line, prompt } from '../helpers/records';
import { startSsh2Server, type TestSsh2Server } from '../helpers/ssh2-server';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { sleep, until } from '../helpers/wait';

// A hub and a remote kernel on this machine, the remote reached through a real OpenSSH sshd on a
// loopback port (its own host key, the hub's own user key and known_hosts in a temp HOME).

const LINK = graphql(`mutation($target: String!, $name: String, $trust: TrustTier, $accept: Boolean, $startKernel: Boolean) {
  linkHost(target: $target, name: $name, trust: $trust, acceptNewHostKey: $accept, startKernel: $startKernel) {
    name target trust status { state reason message since lastSeen rttMs } } }`);
/** every host, with the fields LINK answers for the one it links */
const HOSTS = graphql(`{ hosts { name target trust status { state reason message since lastSeen rttMs } } }`);

interface LinkRequest {
  target: string;
  name: string;
  /** the remote kernel's state dir and the command to run there: kept in the hub's hosts.json */
  stateDir: string;
  command?: string;
  trust?: Enum<'TrustTier'>;
  accept?: boolean;
  startKernel?: boolean;
}

/** Links a host as `loom link --command … --remote-state …` does: those two in hosts.json, the rest asked over GraphQL. */
function linkThrough(kernel: TestKernel, { stateDir, command, ...asked }: LinkRequest) {
  configureRemote(kernel, { name: asked.name, target: asked.target, stateDir, command });
  return kernel.gql(LINK, asked);
}

function projects(name: string): string {
  const root = mkdtempSync(join(tmpdir(), `loom-fed-${name}-`));
  mkdirSync(join(root, '-home-dev-demo'));
  writeFileSync(join(root, '-home-dev-demo', `${name}1.jsonl`), line(prompt(`${name}-p1`, null, `a session on ${name}`)));
  return root;
}

let sshd: TestSshd;
let remote: TestKernel;
/** the remote kernel; it could link hosts of its own through the same sshd */
const startRemote = () => startTestKernel(remoteRoot, { hostName: 'gpubox', stateDir: remoteStateDir, federation: { home: sshd.home, ...FAST_LINKS } });
let remoteStateDir: string;
let remoteRoot: string;
beforeAll(async () => {
  sshd = await startSshd();
  remoteStateDir = mkdtempSync(join(tmpdir(), 'loom-fed-remote-state-'));
  remoteRoot = projects('gpu');
  remote = await startRemote();
});
afterAll(async () => {
  await remote?.close();
  await sshd?.close();
  rmSync(remoteStateDir, { recursive: true, force: true });
  rmSync(remoteRoot, { recursive: true, force: true });
});

describe('the hosts file', () => {
  it('refuses to start on a hosts.json that is not valid, naming the field and the reason, and leaves it untouched', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'loom-fed-bad-'));
    const refusal = async (hosts: object[]) => {
      const text = JSON.stringify({ hosts });
      writeFileSync(join(stateDir, 'hosts.json'), text);
      const error = await startTestKernel(projects('bad'), { stateDir }).then(
        () => null,
        (err: Error) => err.message,
      );
      expect(readFileSync(join(stateDir, 'hosts.json'), 'utf8')).toBe(text);
      return error;
    };
    expect(await refusal([{ name: 'gpu', target: 'gpu-box', trust: 'sometimes' }])).toMatch(
      /hosts\.json is not a valid hosts file: hosts\.0\.trust \(host "gpu"\): .*"trusted"\|"directed"\|"isolated"/,
    );
    expect(
      await refusal([
        { name: 'gpu', target: 'gpu-box' },
        { name: 'gpu', target: 'other' },
      ]),
    ).toMatch(/hosts\.1\.name \(host "gpu"\): "gpu" is linked twice/);
    expect(await refusal([{ name: '-x', target: 'gpu-box' }])).toMatch(/hosts\.0\.name \(host "-x"\): letters, digits/);
    expect(await refusal([{ name: 'gpu', target: 'gpu-box', command: 'touch /tmp/x; loom' }])).toMatch(
      /hosts\.0\.command \(host "gpu"\): a command is "loom" or an absolute path, then arguments of letters, digits and \._\/=:@- only/,
    );
    expect(await refusal([{ name: 'gpu', target: 'gpu-box', command: 'node loom.js' }])).toMatch(
      /hosts\.0\.command \(host "gpu"\): a command is "loom" or an absolute path/,
    );
    expect(await refusal([{ name: 'gpu', target: 'gpu-box', stateDir: '$(id)' }])).toMatch(
      /hosts\.0\.stateDir \(host "gpu"\): a state dir is an absolute path/,
    );
    expect(await refusal([{ name: 'gpu', target: '-oProxyCommand=x' }])).toMatch(/hosts\.0\.target \(host "gpu"\): a target does not start with "-"/);
    rmSync(stateDir, { recursive: true, force: true });
  });
});

describe('linking a host over SSH', () => {
  let hub: TestKernel;
  afterEach(async () => {
    await hub?.close();
  });
  const startHub = async () => (hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } }));
  const link = (request: Partial<LinkRequest> = {}) =>
    linkThrough(hub, { target: `${sshd.user}@127.0.0.1:${sshd.port}`, name: 'gpu', stateDir: remoteStateDir, ...request });
  const status = async (name = 'gpu') => (await hub.gql(HOSTS)).data.hosts.find((h) => h.name === name)?.status;
  const reaches = (state: string) =>
    until(async () => {
      const s = await status();
      return s!.state === state && s;
    }, `gpu to be ${state}`);

  it('links a remote kernel through sshd: UP with a round trip, DIRECTED by default, kept in hosts.json', async () => {
    await startHub();
    const { data, errors } = await link();
    expect(errors).toBeUndefined();
    expect(data.linkHost).toMatchObject({ name: 'gpu', trust: 'DIRECTED', status: { state: 'UP', reason: null } });
    expect(data.linkHost.status!.rttMs).toBeGreaterThan(0);
    const saved = JSON.parse(readFileSync(join(hub.stateDir, 'hosts.json'), 'utf8'));
    expect(saved.hosts).toEqual([
      { name: 'gpu', target: `${sshd.user}@127.0.0.1:${sshd.port}`, trust: 'directed', command: LOOM_COMMAND, stateDir: remoteStateDir },
    ]);
    const hosts = (await hub.gql(graphql(`{ hosts { name local trust } }`))).data.hosts;
    expect(hosts).toEqual([
      { name: 'laptop', local: true, trust: null },
      { name: 'gpu', local: false, trust: 'DIRECTED' },
    ]);
  });

  it('takes no command or state dir over GraphQL: a linkHost naming one is a validation error, and nothing is stored', async () => {
    await startHub();
    const target = `${sshd.user}@127.0.0.1:${sshd.port}`;
    const { data, errors } = await hub.gql(`mutation { linkHost(target: "${target}", name: "gpu", command: "touch /tmp/x; loom", stateDir: "/tmp") { name } }`);
    expect(data).toBeUndefined();
    expect(errors!.map((e) => e.message)).toEqual([
      'Unknown argument "command" on field "Mutation.linkHost".',
      'Unknown argument "stateDir" on field "Mutation.linkHost".',
    ]);
    expect(existsSync(join(hub.stateDir, 'hosts.json'))).toBe(false);
    expect((await hub.gql(graphql(`{ hosts { name } }`))).data.hosts).toEqual([{ name: 'laptop' }]);
  });

  it('announces every session of a host linked while a change stream is open, the first link too', async () => {
    const root = projects('hub');
    hub = await startTestKernel(root, { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } });
    const changed: string[] = [];
    const iterator = iterate(hub.ws(), graphql(`subscription { sessionsChanged { sessionId } }`));
    const consume = (async () => {
      for await (const r of iterator) changed.push(r.data!.sessionsChanged.sessionId);
    })();
    // no acknowledgement exists for a subscription: a change here shows the stream is open
    let n = 0;
    await until(() => {
      writeFileSync(join(root, '-home-dev-demo', `here${++n}.jsonl`), line(prompt(`here${n}`, null, 'a change on the hub')));
      return changed.some((id) => id.startsWith('laptop:here'));
    }, 'the change stream open');
    expect((await link()).data.linkHost.status!.state).toBe('UP');
    await until(() => changed.includes('gpu:gpu1'), "the new host's session announced");
    await iterator.return?.();
    await consume;
    rmSync(root, { recursive: true, force: true });
  });

  // four CLI processes, each loading the TypeScript sources: seconds each on a busy 2-core machine
  it('links with an allowed --command and --remote-state, lists and unlinks from the command line, through the running hub kernel', {
    timeout: 60_000,
  }, async () => {
    await startHub();
    const { execFile } = await import('node:child_process');
    // the kernel answers in this process: the CLI must run beside it, not block it
    const loom = (...args: string[]) =>
      new Promise<string>((resolve, reject) =>
        execFile('node', [join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js'), ...args, '--state', hub.stateDir], (err, stdout, stderr) =>
          err ? reject(new Error(stderr)) : resolve(stdout),
        ),
      );
    const target = `${sshd.user}@127.0.0.1:${sshd.port}`;
    expect(await loom('link', target, '--name', 'gpu', '--trust', 'trusted', '--command', LOOM_COMMAND, '--remote-state', remoteStateDir)).toMatch(
      new RegExp(`^linked gpu \\(${target}, trusted\\): up, [\\d.]+ ms\\n$`),
    );
    // the command and state dir are this machine's own configuration, kept where the kernel reads them
    expect(JSON.parse(readFileSync(join(hub.stateDir, 'hosts.json'), 'utf8')).hosts).toEqual([
      { name: 'gpu', target, trust: 'trusted', command: LOOM_COMMAND, stateDir: remoteStateDir },
    ]);
    const table = (await loom('hosts')).split('\n');
    expect(table[0]).toMatch(/^HOST +TARGET +TRUST +STATUS +RTT/);
    expect(table.find((l) => l.startsWith('gpu '))).toMatch(new RegExp(`^gpu +${target.replace(/\./g, '\\.')} +trusted +up since`));
    expect(await loom('unlink', 'gpu')).toBe('unlinked gpu\n');
    await expect(loom('unlink', 'gpu')).rejects.toThrow(/no linked host "gpu"/);
  });

  it('reaches a host through a ProxyJump from ~/.ssh/config', async () => {
    const jumping = await startSshd({
      sshConfig: ({ port, user, userKey }) =>
        `Host jump\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ${userKey}\n\n` +
        `Host behind\n  HostName 127.0.0.1\n  Port ${port}\n  User ${user}\n  IdentityFile ${userKey}\n  ProxyJump jump\n`,
    });
    try {
      hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home: jumping.home, ...FAST_LINKS } });
      const linked = (await linkThrough(hub, { target: 'behind', name: 'gpu', stateDir: remoteStateDir })).data.linkHost;
      expect(linked.status).toMatchObject({ state: 'UP' });
      expect(jumping.logs.filter((l) => /Accepted publickey/.test(l)).length).toBeGreaterThanOrEqual(2);
    } finally {
      await hub.close();
      await jumping.close();
    }
  });

  it('refuses an unknown host key with its fingerprint, and links once it is accepted', async () => {
    const unknown = await startSshd({ knownHosts: false });
    try {
      hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home: unknown.home, ...FAST_LINKS } });
      const target = `${unknown.user}@127.0.0.1:${unknown.port}`;
      const refused = (await linkThrough(hub, { target, name: 'gpu', stateDir: remoteStateDir })).data.linkHost;
      expect(refused.status).toMatchObject({ state: 'DOWN', reason: 'HOST_KEY_UNKNOWN' });
      expect(refused.status!.message).toContain(fingerprint(unknown.hostKey.blob));
      expect(refused.status!.message).toContain('--accept-new');
      const accepted = (await linkThrough(hub, { target, name: 'gpu', stateDir: remoteStateDir, accept: true })).data.linkHost;
      expect(accepted.status!.state).toBe('UP');
      expect(readFileSync(join(unknown.home, '.ssh', 'known_hosts'), 'utf8')).toContain(unknown.hostKey.line.split(' ')[1]);
    } finally {
      await hub.close();
      await unknown.close();
    }
  });

  it('refuses a changed host key hard, even when asked to accept new keys', async () => {
    const rotating = await startSshd();
    try {
      hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home: rotating.home, ...FAST_LINKS } });
      await rotating.rotateHostKey();
      const target = `${rotating.user}@127.0.0.1:${rotating.port}`;
      const refused = (await linkThrough(hub, { target, name: 'gpu', stateDir: remoteStateDir, accept: true })).data.linkHost;
      expect(refused.status).toMatchObject({ state: 'DOWN', reason: 'HOST_KEY_CHANGED' });
      expect(refused.status!.message).toContain(fingerprint(rotating.hostKey.blob));
    } finally {
      await hub.close();
      await rotating.close();
    }
  });

  it('reports a refused user key once as AUTH_FAILED and does not retry it', async () => {
    const home = mkdtempSync(join(tmpdir(), 'loom-fed-home-'));
    mkdirSync(join(home, '.ssh'));
    copyFileSync(join(sshd.home, '.ssh', 'known_hosts'), join(home, '.ssh', 'known_hosts'));
    const { execFileSync } = await import('node:child_process');
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', join(home, '.ssh', 'id_ed25519')]);
    hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home, ...FAST_LINKS } });
    const refused = (await link()).data.linkHost;
    expect(refused.status).toMatchObject({ state: 'DOWN', reason: 'AUTH_FAILED' });
    await new Promise((r) => setTimeout(r, 1500)); // several backoff periods
    expect(hub.logs.filter((l) => l.startsWith('gpu is down'))).toHaveLength(1);
    const attempts = sshd.logs.filter((l) => /Connection closed by authenticating user|Failed publickey|invalid user/i.test(l)).length;
    expect(attempts).toBeLessThanOrEqual(1);
    rmSync(home, { recursive: true, force: true });
  });

  it('says KERNEL_NOT_RUNNING when the remote kernel stops, and comes back UP when it starts again', async () => {
    await startHub();
    expect((await link()).data.linkHost.status!.state).toBe('UP');
    await remote.close();
    // whether or not the hub has noticed yet: UNAVAILABLE, naming the host
    for (const query of [`{ session(id: "gpu:gpu1") { id } }`, `{ session(id: "gpu:gpu1") { id host { name } } }`]) {
      const { errors } = await hub.gql(query);
      expect(errors![0]).toMatchObject({ extensions: { code: 'UNAVAILABLE' }, message: expect.stringMatching(/^gpu (did not answer|is down since)/) });
    }
    const down = await reaches('DOWN');
    expect(down).toMatchObject({ reason: 'KERNEL_NOT_RUNNING' });
    expect(down.message).toContain('loom up');
    remote = await startRemote();
    await reaches('UP');
  });

  it('reaches a remote again after its token is rotated: the old socket is refused, the new token read on reconnecting', { timeout: 45_000 }, async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'loom-fed-rotate-'));
    const rotated = await startTestKernel(projects('rot'), { hostName: 'rotbox', stateDir });
    try {
      await startHub();
      expect((await link({ name: 'rot', stateDir })).data.linkHost.status!.state).toBe('UP');
      const ask = async () => (await hub.gql(graphql(`{ session(id: "rot:rot1") { id } }`))).data?.session?.id;
      expect(await ask()).toBe('rot:rot1');
      rotateToken(stateDir);
      // the hub notices (its pings are refused) and reconnects, reading the new token
      // noticing takes a refused ping and a reconnect: seconds here, more on a loaded machine
      await until(async () => hub.logs.some((l) => /^rot is down/.test(l)) && (await ask()) === 'rot:rot1', 'rot reached again with the new token', 30_000);
      expect(await status('rot')).toMatchObject({ state: 'UP' });
    } finally {
      await rotated.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('starts the remote kernel only when asked in so many words (--start), never by itself', async () => {
    await startHub();
    await remote.close();
    const down = (await link()).data.linkHost.status!;
    expect(down).toMatchObject({ state: 'DOWN', reason: 'KERNEL_NOT_RUNNING' });
    expect(down.message).toContain('--start');
    // the remote's loom, told where that machine's transcripts are
    const wrapper = join(remoteStateDir, 'loom-wrapper.sh');
    writeFileSync(wrapper, `#!/bin/sh\nif [ "$1" = up ]; then exec ${LOOM_COMMAND} "$@" --projects '${remoteRoot}'; fi\nexec ${LOOM_COMMAND} "$@"\n`, {
      mode: 0o755,
    });
    const started = (await link({ command: wrapper, startKernel: true })).data.linkHost.status!;
    expect(started.state).toBe('UP');
    const claim = JSON.parse(readFileSync(join(remoteStateDir, 'kernel.json'), 'utf8'));
    await hub.close();
    process.kill(claim.pid, 'SIGTERM');
    await until(() => {
      try {
        process.kill(claim.pid, 0);
        return false;
      } catch {
        return true;
      }
    }, 'the started kernel to stop');
    remote = await startRemote();
  }, 60_000);

  it('says UNREACHABLE when sshd dies, and comes back UP when it returns', async () => {
    await startHub();
    expect((await link()).data.linkHost.status!.state).toBe('UP');
    await sshd.stop();
    expect((await reaches('DOWN')).reason).toBe('UNREACHABLE');
    await sshd.start();
    await reaches('UP');
  });

  it('refuses a mutation meant for an isolated host with FORBIDDEN', async () => {
    await startHub();
    await link({ trust: 'ISOLATED' });
    const before = (await remote.gql(graphql(`{ feed { completed { id } working { id } } }`))).data.feed;
    const goal = [...before.working, ...before.completed][0].id.replace(/^gpubox:/, 'gpu:');
    const { errors } = await hub.gql(graphql(`mutation($ids: [ID!]!) { clearGoals(ids: $ids, idempotencyKey: "k1") { cleared } }`), { ids: [goal] });
    expect(errors![0].extensions?.code).toBe('FORBIDDEN');
    expect(errors![0].message).toMatch(/gpu is isolated/);
    expect((await remote.gql(graphql(`{ feed { completed { id } working { id } } }`))).data.feed).toEqual(before);
    // an undo is a mutation too: a batch cleared on the host itself stays cleared
    const UNDO = graphql(`mutation($b: ID!) { undoClear(batchId: $b) { restored } }`);
    const cleared = await remote.gql(graphql(`mutation($ids: [ID!]!) { clearGoals(ids: $ids, idempotencyKey: "k2") { batchId } }`), {
      ids: [goal.replace(/^gpu:/, 'gpubox:')],
    });
    const undo = await hub.gql(UNDO, { b: `gpu:${cleared.data.clearGoals.batchId}` });
    expect(undo.errors![0].extensions?.code).toBe('FORBIDDEN');
    expect((await remote.gql(UNDO, { b: cleared.data.clearGoals.batchId })).data.undoClear.restored).toBe(1);
  });

  it('lists, relinks with another trust, and unlinks hosts, announcing each change on hostsChanged', async () => {
    await startHub();
    const seen: string[] = [];
    const iterator = iterate(hub.ws(), graphql(`subscription { hostsChanged { name trust status { state } } }`));
    const consume = (async () => {
      for await (const r of iterator) seen.push(JSON.stringify(r.data!.hostsChanged.filter((h) => h.name === 'gpu')));
    })();
    await until(() => seen.length > 0, 'the first hostsChanged frame');
    await link();
    await until(() => seen.some((s) => s.includes('"UP"')), 'UP on hostsChanged');
    const trusted = await hub.gql(graphql(`mutation { setHostTrust(name: "gpu", trust: TRUSTED) { trust } }`));
    expect(trusted.data.setHostTrust.trust).toBe('TRUSTED');
    await until(() => seen.some((s) => s.includes('TRUSTED')), 'the new trust on hostsChanged');
    expect((await hub.gql(graphql(`mutation { unlinkHost(name: "gpu") }`))).data.unlinkHost).toBe(true);
    await until(() => seen[seen.length - 1] === '[]', 'the host gone on hostsChanged');
    expect((await hub.gql(graphql(`mutation { unlinkHost(name: "gpu") }`))).data.unlinkHost).toBe(false);
    await iterator.return?.();
    await consume;
  });
});

describe('remote sessions through the hub', () => {
  let hub: TestKernel;
  beforeAll(async () => {
    hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } });
    const linked = await linkThrough(hub, { target: `${sshd.user}@127.0.0.1:${sshd.port}`, name: 'gpu', stateDir: remoteStateDir });
    expect(linked.data.linkHost.status!.state).toBe('UP');
  });
  afterAll(() => hub?.close());

  it('lists every session of both hosts, host-qualified with the alias, most recently active first', async () => {
    const { data, errors } = await hub.gql(graphql(`{ sessions(first: 50) { totalCount nodes { id name host { name local } updatedAt } } }`));
    expect(errors).toBeUndefined();
    const ids = data.sessions.nodes.map((n) => n.id);
    expect(ids).toContain('laptop:hub1');
    expect(ids).toContain('gpu:gpu1');
    expect(ids.some((id: string) => id.startsWith('gpubox:'))).toBe(false);
    expect(data.sessions.totalCount).toBe(ids.length);
    const remote = data.sessions.nodes.find((n) => n.id === 'gpu:gpu1');
    expect(remote).toMatchObject({ name: 'a session on gpu', host: { name: 'gpu', local: false } });
    const times = data.sessions.nodes.map((n) => Date.parse(n.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('pages the merged list with one cursor, every session once', async () => {
    const PAGE = graphql(`query($after: String) { sessions(first: 1, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }`);
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 5; i++) {
      const { data }: { data: ResultOf<typeof PAGE> } = await hub.gql(PAGE, { after });
      seen.push(...data.sessions.nodes.map((n) => n.id));
      if (!data.sessions.pageInfo.hasNextPage) break;
      after = data.sessions.pageInfo.endCursor;
    }
    expect(seen.toSorted()).toEqual(['gpu:gpu1', 'laptop:hub1']);
  });

  it('answers a remote session, its turns and atoms by id, with ids in the alias', async () => {
    const { data, errors } = await hub.gql(
      graphql(`query($id: ID!) { session(id: $id) { id key turns { id trigger { id promptLine content { __typename ... on TextBlock { text } } } } }
      transcript(sessionId: $id) { maxSequence entries { id sequence } } }`),
      { id: 'gpu:gpu1' },
    );
    expect(errors).toBeUndefined();
    expect(data.session!.id).toBe('gpu:gpu1');
    expect(data.session!.turns[0].id).toMatch(/^gpu:gpu1:/);
    expect(data.session!.turns[0].trigger).toMatchObject({ promptLine: 'a session on gpu', content: [{ __typename: 'TextBlock', text: 'a session on gpu' }] });
    expect(data.transcript.entries.every((e) => e.id.startsWith('gpu:gpu1:'))).toBe(true);
    const missing = await hub.gql(graphql(`{ session(id: "gpu:nope") { id } }`));
    expect(missing.data.session).toBeNull();
  });

  it("gives a remote block's first characters and its length, and by its atom's id the whole, forwarded whole or run on the hub", async () => {
    const PREFIX = graphql(`{ transcript(sessionId: "gpu:gpu1") { entries { id content { ... on TextBlock { text(maxChars: 3) length } } } } }`);
    const { data } = await hub.gql(PREFIX);
    const first = data.transcript.entries[0];
    expect(first.content).toEqual([{ text: 'a s', length: 'a session on gpu'.length }]);
    const WHOLE = graphql(`query($id: ID!) { atom(id: $id) { id content { ... on TextBlock { text } } } }`);
    const ON_HUB = graphql(`query($id: ID!) { atom(id: $id) { id content { ... on TextBlock { text } } } hosts { name } }`);
    for (const document of [WHOLE, ON_HUB]) {
      const whole = await hub.gql(document, { id: first.id });
      expect(whole.data.atom).toEqual({ id: first.id, content: [{ text: 'a session on gpu' }] });
    }
  });

  /** A response body as `ask` reads it: the fields of each root by name, and the errors. */
  interface Answer {
    data?: Record<string, Record<string, unknown> | null> | null;
    errors?: GraphQLFormattedError[];
  }

  /** POSTs like gql, and also says which host the hub forwarded the query to, if it did */
  const ask = async (query: string, variables: Record<string, unknown> = {}, accept = 'application/json') => {
    const res = await hub.fetch('graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ query, variables }),
    });
    return { forwardedTo: res.headers.get('x-loom-forwarded-to'), timing: res.headers.get('server-timing'), body: (await res.json()) as Answer };
  };

  it('answers a query about one remote host alike whether it is forwarded whole or run on the hub', async () => {
    const FIELDS = `id name turnCount turns { id trigger { id } segments { input { id } } }`;
    const asked = await ask(`query($id: ID!) { a: session(id: $id) { ${FIELDS} } b: transcript(sessionId: $id, limit: 5) { entries { id } } }`, {
      id: 'gpu:gpu1',
    });
    expect(asked.forwardedTo).toBe('gpu');
    expect(asked.timing).toMatch(/^hub;dur=\d+\.\d\d, remote;dur=\d+\.\d\d$/);
    const whole = asked.body;
    // asking for the Host keeps the query on the hub, which answers the Host itself
    const kept = await ask(`query($id: ID!) { a: session(id: $id) { ${FIELDS} host { name } } b: transcript(sessionId: $id, limit: 5) { entries { id } } }`, {
      id: 'gpu:gpu1',
    });
    expect(kept.forwardedTo).toBeNull();
    const onHub = kept.body;
    expect(onHub.data!.a!.host).toEqual({ name: 'gpu' });
    delete onHub.data!.a!.host;
    expect(whole).toEqual(onHub);
    expect(JSON.stringify(whole)).not.toContain('gpubox');
    // the remote's own errors keep their code and name the host by its alias, on either path
    for (const query of [`{ transcript(sessionId: "gpu:nope") { maxSequence } }`, `{ events(sessionId: "gpu:nope") { id } hosts { name } }`]) {
      const missing = await hub.gql(query);
      expect(missing.errors![0]).toMatchObject({ extensions: { code: 'NOT_FOUND' }, message: expect.stringMatching(/^no session gpu:nope\b/) });
    }
    // one root failing leaves the others' data, on either path
    const PARTLY = (extra: string) => `{ bad: session(id: "gpu:gpu1") { id turns(last: -1) { id } } good: session(id: "gpu:gpu1") { id ${extra} } }`;
    const forwarded = await ask(PARTLY(''));
    expect(forwarded.forwardedTo).toBe('gpu');
    const onHubToo = await ask(PARTLY('host { name }'));
    expect(onHubToo.forwardedTo).toBeNull();
    for (const { body } of [forwarded, onHubToo]) {
      expect(body.data).toMatchObject({ bad: null, good: { id: 'gpu:gpu1' } });
      expect(body.errors).toEqual([expect.objectContaining({ path: expect.arrayContaining(['bad']), extensions: { code: 'BAD_USER_INPUT' } })]);
    }
  });

  it('forwards only what the hub itself validates, and answers the rest itself', async () => {
    // the hub's own validation (and limits) come first: a bad query never reaches the remote
    const invalid = await ask(`{ session(id: "gpu:gpu1") { id noSuchField } }`);
    expect(invalid.forwardedTo).toBeNull();
    expect(invalid.body.errors![0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' }, message: expect.stringContaining('noSuchField') });
    const deep = await ask(`{ session(id: "gpu:gpu1") { turns { session { turns { session { turns { session { turns { id } } } } } } } } }`);
    expect(deep.forwardedTo).toBeNull();
    expect(deep.body.errors![0].message).toMatch(/depth/i);
    // ids of two hosts, or of this one, are answered by the hub from every host it needs
    const mixed = await ask(`query($a: ID!, $b: ID!) { a: session(id: $a) { id } b: session(id: $b) { id } }`, { a: 'gpu:gpu1', b: 'laptop:hub1' });
    expect(mixed.forwardedTo).toBeNull();
    expect(mixed.body.data).toEqual({ a: { id: 'gpu:gpu1' }, b: { id: 'laptop:hub1' } });
    // a client that takes only graphql-response+json gets it from the ordinary path
    const strict = await ask(`{ session(id: "gpu:gpu1") { id } }`, {}, 'application/graphql-response+json');
    expect(strict).toEqual({ forwardedTo: null, timing: null, body: { data: { session: { id: 'gpu:gpu1' } } } });
  });

  it('forwards a query whose body comes in pieces, after its headers, as one that comes with them', async () => {
    const body = JSON.stringify({ query: `{ session(id: "gpu:gpu1") { id } }` });
    const socket = connect(hub.port, '127.0.0.1');
    let reply = '';
    socket.on('data', (chunk) => (reply += chunk));
    const ended = new Promise((resolve) => socket.on('end', resolve));
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1:${hub.port}\r\nX-Loom-Token: ${hub.token}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(body.slice(10));
    await ended;
    expect(reply).toMatch(/^HTTP\/1\.1 200/);
    expect(reply.toLowerCase()).toContain('x-loom-forwarded-to: gpu');
    expect(JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4))).toEqual({ data: { session: { id: 'gpu:gpu1' } } });
  });

  it("keeps a host's page of sessions while nothing changes there, and reads it again once something does", async () => {
    const PAGE = graphql(`{ sessions(first: 50) { nodes { id dir turnCount } } }`);
    const asked = vi.spyOn(remote.source, 'sessions');
    try {
      // once the hub follows the remote's version (at once after linking), asking twice asks the remote at most once
      let pages: ResultOf<typeof PAGE>['sessions']['nodes'][] = [];
      await until(async () => {
        const before = asked.mock.calls.length;
        pages = [(await hub.gql(PAGE)).data.sessions.nodes, (await hub.gql(PAGE)).data.sessions.nodes];
        return asked.mock.calls.length - before <= 1;
      }, 'the hub keeping the page');
      expect(pages[1]).toEqual(pages[0]);
      writeFileSync(join(remoteRoot, '-home-dev-demo', 'gpu3.jsonl'), line(prompt('gpu3-p1', null, 'a new session on gpu')));
      await until(async () => (await hub.gql(PAGE)).data.sessions.nodes.some((n) => n.id === 'gpu:gpu3'), 'the new session in the merged list');
    } finally {
      asked.mockRestore();
    }
  });

  it('merges the feed of both hosts', async () => {
    const { data } = await hub.gql(graphql(`{ feed { working { id updatedAt } completed { id updatedAt } } }`));
    const ids = [...data.feed.working, ...data.feed.completed].map((g) => g.id);
    expect(ids.some((id: string) => id.startsWith('gpu:gpu1/'))).toBe(true);
    expect(ids.some((id: string) => id.startsWith('laptop:hub1/'))).toBe(true);
  });

  it("cuts the merged feed's completed goals to the first few asked for, newest of both hosts first", async () => {
    const all = (await hub.gql(graphql(`{ feed { completed { id updatedAt } } }`))).data.feed.completed;
    expect(all.length).toBeGreaterThan(2);
    const { data } = await hub.gql(graphql(`{ feed(completedFirst: 2) { completed { id updatedAt } } }`));
    expect(data.feed.completed).toEqual(all.slice(0, 2));
  });

  it('draws the remote sessions as timeline lanes beside the local ones', async () => {
    const { data, errors } = await hub.gql(
      graphql(`{ timeline(from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z") { session { id host { name } } triggers { turnId } } }`),
    );
    expect(errors).toBeUndefined();
    const lanes = data.timeline.map((l) => l.session.id);
    expect(lanes).toEqual(expect.arrayContaining(['laptop:hub1', 'gpu:gpu1']));
    const remote = data.timeline.find((l) => l.session.id === 'gpu:gpu1');
    expect(remote!.session.host.name).toBe('gpu');
    expect(remote!.triggers[0].turnId).toMatch(/^gpu:gpu1:/);
  });

  it('clears goals of this machine and of a directed host in one batch, and one undo puts both back', async () => {
    const FEED = graphql(`{ feed { working { id } blocked { id } completed { id } } }`);
    const ids = async () => {
      const feed = (await hub.gql(FEED)).data.feed;
      return [...feed.working, ...feed.blocked, ...feed.completed].map((g) => g.id);
    };
    const before = await ids();
    const pick = [before.find((id) => id.startsWith('gpu:'))!, before.find((id) => id.startsWith('laptop:'))!];
    const { data, errors } = await hub.gql(graphql(`mutation($ids: [ID!]!) { clearGoals(ids: $ids, idempotencyKey: "both") { batchId cleared } }`), {
      ids: pick,
    });
    expect(errors).toBeUndefined();
    expect(data.clearGoals.cleared).toBe(2);
    expect(data.clearGoals.batchId).toMatch(/^(gpu|laptop):[^,]+,(gpu|laptop):[^,]+$/);
    expect(await ids()).toEqual(before.filter((id) => !pick.includes(id)));
    const remoteFeed = (await remote.gql(FEED)).data.feed;
    expect([...remoteFeed.working, ...remoteFeed.completed].map((g) => g.id)).not.toContain(pick[0].replace(/^gpu:/, 'gpubox:'));
    const undo = await hub.gql(graphql(`mutation($b: ID!) { undoClear(batchId: $b) { restored } }`), { b: data.clearGoals.batchId });
    expect(undo.data.undoClear.restored).toBe(2);
    expect((await ids()).toSorted()).toEqual(before.toSorted());
  });

  it('delivers a line appended on the remote to a hub subscriber once, and resumes the stream across a remote kernel restart and an sshd outage with exactly what was appended meanwhile', async () => {
    const STREAM = graphql(`subscription { sessionStream(sessionId: "gpu:gpu1") { kind cursor atoms { id sequence promptLine } } }`);
    const frames: ResultOf<typeof STREAM>['sessionStream'][] = [];
    const iterator = iterate(hub.ws(), STREAM);
    const consume = (async () => {
      for await (const r of iterator) frames.push(r.data!.sessionStream);
    })();
    await until(() => frames.length > 0, 'the snapshot');
    expect(frames[0].kind).toBe('SNAPSHOT');
    const file = join(remoteRoot, '-home-dev-demo', 'gpu1.jsonl');
    const { appendFileSync } = await import('node:fs');
    const { assistant, say } = await import('../helpers/records');
    appendFileSync(file, line(assistant('gpu-a1', 'gpu-p1', [say('first reply')], 'end_turn')));
    await until(() => frames.some((f) => f.atoms.some((a) => a.id === 'gpu:gpu1:gpu-a1')), 'the appended atom');

    await remote.close();
    appendFileSync(file, line(prompt('gpu-p2', 'gpu-a1', 'written while the remote kernel was down')));
    remote = await startRemote();
    appendFileSync(file, line(prompt('gpu-p3', 'gpu-p2', 'written after it came back')));
    await until(() => frames.some((f) => f.atoms.some((a) => a.id === 'gpu:gpu1:gpu-p3')), 'the atoms after the outage', 20_000);
    // the same across an outage of sshd itself
    await sshd.stop();
    appendFileSync(file, line(prompt('gpu-p4', 'gpu-p3', 'written while sshd was down')));
    await sshd.start();
    await until(() => frames.some((f) => f.atoms.some((a) => a.id === 'gpu:gpu1:gpu-p4')), 'the atom written while sshd was down', 20_000);
    const delivered = frames.flatMap((f) => f.atoms.map((a) => a.sequence));
    expect(delivered).toEqual([...new Set(delivered)]);
    expect(delivered).toEqual([...delivered].sort((a, b) => a - b));
    expect(frames.flatMap((f) => f.atoms.map((a) => a.id)).slice(-4)).toEqual(['gpu:gpu1:gpu-a1', 'gpu:gpu1:gpu-p2', 'gpu:gpu1:gpu-p3', 'gpu:gpu1:gpu-p4']);
    await iterator.return?.();
    await consume;
  }, 40_000);

  it('announces what a host changed while it was down, once it is back, on change streams open across the outage', async () => {
    const sessions: string[] = [];
    const feed: string[] = [];
    const follow = <Result>(document: TadaDocumentNode<Result, Record<never, never>>, into: string[], sessionId: (data: Result) => string) => {
      const iterator = iterate(hub.ws(), document);
      const consume = (async () => {
        for await (const r of iterator) into.push(sessionId(r.data!));
      })();
      return () => iterator.return?.().then(() => consume);
    };
    const ends = [
      follow(graphql(`subscription { sessionsChanged { sessionId } }`), sessions, (data) => data.sessionsChanged.sessionId),
      follow(graphql(`subscription { feedChanged { sessionId } }`), feed, (data) => data.feedChanged.sessionId),
    ];
    const dir = join(remoteRoot, '-home-dev-demo');
    let n = 0;
    await until(() => {
      writeFileSync(join(dir, `before${++n}.jsonl`), line(prompt(`before${n}`, null, 'a change before the outage')));
      return sessions.some((id) => id.startsWith('gpu:before')) && feed.some((id) => id.startsWith('gpu:before'));
    }, 'both streams open on the remote');
    await sshd.stop();
    const state = async () => (await hub.gql(graphql(`{ hosts { name status { state } } }`))).data.hosts.find((h) => h.name === 'gpu')?.status?.state;
    await until(async () => (await state()) === 'DOWN', 'gpu DOWN');
    writeFileSync(join(dir, 'during.jsonl'), line(prompt('during-p1', null, 'a session begun while the hub could not see it')));
    await until(async () => (await remote.gql(graphql(`{ session(id: "gpubox:during") { id } }`))).data.session, 'the remote indexing it');
    await sshd.start();
    // it never changes again: only a catch-up can announce it
    await until(() => sessions.includes('gpu:during') && feed.includes('gpu:during'), 'the session begun during the outage announced', 20_000);
    await Promise.all(ends.map((end) => end()));
  }, 40_000);

  it('carries more streams to one host than a client socket may hold, for its clients together', async () => {
    // the hub opens each client's streams to a host over its one socket there: two clients of 60
    const clients = [hub.ws(), hub.ws()];
    const snapshots: unknown[] = [];
    const errors: unknown[] = [];
    const streams = clients.flatMap((client) =>
      Array.from({ length: 60 }, () =>
        client.subscribe(
          { query: `subscription { sessionStream(sessionId: "gpu:gpu1") { kind } }` },
          { next: (r) => (r.errors ? errors.push(r.errors) : snapshots.push(r.data)), error: (e) => errors.push(e), complete: () => {} },
        ),
      ),
    );
    await until(() => snapshots.length + errors.length >= 120, 'a first frame or an error on every stream');
    expect(errors).toEqual([]);
    for (const end of streams) end();
    for (const client of clients) await client.dispose();
  });

  it("keeps a down host's sessions and lanes as last seen, its host marked DOWN since, until it returns", async () => {
    const SESSIONS = graphql(`{ sessions(first: 50) { nodes { id host { name status { state since } } } } }`);
    const LANES = graphql(`{ timeline(from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z") { session { id host { status { state } } } } }`);
    const lane = async () => (await hub.gql(LANES)).data.timeline.find((l) => l.session.id === 'gpu:gpu1');
    const before = (await hub.gql(SESSIONS)).data.sessions.nodes.find((n) => n.id === 'gpu:gpu1');
    expect(await lane()).toBeDefined();
    expect(before!.host.status!.state).toBe('UP');
    await sshd.stop();
    const stale = await until(async () => {
      const node = (await hub.gql(SESSIONS)).data.sessions.nodes.find((n) => n.id === 'gpu:gpu1');
      return node?.host.status?.state === 'DOWN' ? node : null;
    }, 'the session listed with its host DOWN');
    expect(Date.parse(stale.host.status!.since)).toBeGreaterThan(Date.parse(before!.host.status!.since));
    expect((await lane())!.session.host.status!.state).toBe('DOWN');
    const page = await hub.gql(graphql(`{ session(id: "gpu:gpu1") { id } }`));
    expect(page.errors![0]).toMatchObject({ extensions: { code: 'UNAVAILABLE' }, message: expect.stringMatching(/^gpu is down since/) });
    await sshd.start();
    await until(async () => (await hub.gql(SESSIONS)).data.sessions.nodes.find((n) => n.id === 'gpu:gpu1')?.host.status?.state === 'UP', 'the host back UP');
  });

  it('adds up usage over both hosts, a row per host under its alias', async () => {
    const { assistant } = await import('../helpers/records');
    const BY_HOST = graphql(`{ usage(groupBy: HOST) { key inputTokens outputTokens } }`);
    // what the remote counted before (earlier tests may have added replies), by its own name
    const own = async () => (await remote.gql(BY_HOST)).data.usage.find((r) => r.key === 'gpubox')?.inputTokens ?? 0;
    const before = await own();
    writeFileSync(
      join(remoteRoot, '-home-dev-demo', 'gpu2.jsonl'),
      line(prompt('u-p1', null, 'count tokens')) + line(assistant('u-a1', 'u-p1', [], 'end_turn')),
    );
    await until(async () => (await own()) === before + 1, 'the remote counting the new reply');
    const rows = (await hub.gql(BY_HOST)).data.usage;
    expect(rows.find((r) => r.key === 'gpu')).toEqual({ key: 'gpu', inputTokens: before + 1, outputTokens: before + 1 });
    expect(rows.some((r) => r.key === 'gpubox')).toBe(false);
    const days = (await hub.gql(graphql(`{ usage(groupBy: DAY) { key inputTokens } }`))).data.usage;
    const direct = (await remote.gql(graphql(`{ usage(groupBy: DAY) { key inputTokens } }`))).data.usage;
    expect(days).toEqual(direct);
  });

  it("never re-exports the remote's own linked hosts, so links cannot loop", async () => {
    const thirdState = mkdtempSync(join(tmpdir(), 'loom-fed-third-'));
    const third = await startTestKernel(projects('third'), { hostName: 'thirdbox', stateDir: thirdState });
    try {
      const linked = await linkThrough(remote, { target: `${sshd.user}@127.0.0.1:${sshd.port}`, name: 'third', stateDir: thirdState });
      expect(linked.data.linkHost.status!.state).toBe('UP');
      const direct = (await remote.gql(graphql(`{ sessions { nodes { id } } }`))).data.sessions.nodes.map((n) => n.id);
      expect(direct).toContain('third:third1');
      const viaHub = (await hub.gql(graphql(`{ sessions { nodes { id } } }`))).data.sessions.nodes.map((n) => n.id);
      expect(viaHub).toContain('gpu:gpu1');
      expect(viaHub.some((id: string) => id.startsWith('third:') || id.includes('third1'))).toBe(false);
      expect((await hub.gql(graphql(`{ session(id: "gpu:third1") { id } }`))).data.session).toBeNull();
    } finally {
      await remote.gql(graphql(`mutation { unlinkHost(name: "third") }`));
      await third.close();
      rmSync(thirdState, { recursive: true, force: true });
    }
  });
});

/**
 * An ssh2 server (for what a real sshd will not do on demand) that lets in the hub's user key,
 * whose canned answers to `loom status` and `cat` of the token point the hub at the remote kernel's
 * token and a kernel on `port`; and a temp HOME holding that key and the server's host key.
 */
async function ssh2ServerTo(port: number): Promise<{ server: TestSsh2Server; home: string }> {
  const home = mkdtempSync(join(tmpdir(), 'loom-fed-ssh2-'));
  mkdirSync(join(home, '.ssh'));
  copyFileSync(sshd.userKey, join(home, '.ssh', 'id_ed25519'));
  const server = await startSsh2Server({ authorizedKey: readFileSync(`${sshd.userKey}.pub`, 'utf8') });
  writeFileSync(join(home, '.ssh', 'known_hosts'), `[127.0.0.1]:${server.port} ${server.hostKey.line.split(' ').slice(0, 2).join(' ')}\n`);
  server.exec = (command) =>
    command.includes('status --json')
      ? { stdout: JSON.stringify({ running: true, port, stateDir: remoteStateDir, version: VERSION }), code: 0 }
      : command.startsWith('cat -- ')
        ? { stdout: remote.token, code: 0 }
        : { stdout: '', code: 127 };
  return { server, home };
}

describe('a tunnel that stops answering', () => {
  let server: TestSsh2Server;
  let hub: TestKernel;
  afterAll(async () => {
    await hub?.close();
    await server?.close();
  });

  it('goes DOWN within the keepalive window when the SSH server blackholes, and resumes its streams with exactly what was appended once it answers again', async () => {
    let home: string;
    ({ server, home } = await ssh2ServerTo(remote.port));
    const file = join(remoteRoot, '-home-dev-demo', 'bh1.jsonl');
    writeFileSync(file, line(prompt('bh-p1', null, 'a session behind a flaky link')));
    await until(async () => (await remote.gql(graphql(`{ session(id: "gpubox:bh1") { id } }`))).data.session, 'the remote indexing the new session');
    hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home, ...FAST_LINKS } });
    const linked = (await hub.gql(LINK, { target: `me@127.0.0.1:${server.port}`, name: 'bh' })).data.linkHost;
    expect(linked.status!.state).toBe('UP');
    const STREAM = graphql(`subscription { sessionStream(sessionId: "bh:bh1") { atoms { id sequence } } }`);
    const frames: ResultOf<typeof STREAM>['sessionStream'][] = [];
    const iterator = iterate(hub.ws(), STREAM);
    const consume = (async () => {
      for await (const r of iterator) frames.push(r.data!.sessionStream);
    })();
    await until(() => frames.length > 0, 'the snapshot');
    server.blackhole();
    const started = Date.now();
    const down = await until(async () => {
      const status = (await hub.gql(graphql(`{ hosts { name status { state reason } } }`))).data.hosts.find((h) => h.name === 'bh')?.status;
      return status?.state === 'DOWN' ? status : null;
    }, 'DOWN after the blackhole');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(down.reason).toBe('UNREACHABLE');

    appendFileSync(file, line(prompt('bh-p2', 'bh-p1', 'written while the link was silent')));
    appendFileSync(file, line(prompt('bh-p3', 'bh-p2', 'and another')));
    server.restore();
    await until(() => frames.some((f) => f.atoms.some((a) => a.id === 'bh:bh1:bh-p3')), 'the atoms written during the blackhole', 20_000);
    const ids = frames.flatMap((f) => f.atoms.map((a) => a.id));
    expect(ids).toEqual(['bh:bh1:bh-p1', 'bh:bh1:bh-p2', 'bh:bh1:bh-p3']);
    const state = (await hub.gql(graphql(`{ hosts { name status { state } } }`))).data.hosts.find((h) => h.name === 'bh')?.status?.state;
    expect(state).toBe('UP');
    await iterator.return?.();
    await consume;
    rmSync(home, { recursive: true, force: true });
  }, 40_000);
});

describe('a host that lies about whose objects it sends', () => {
  let server: TestSsh2Server;
  let liar: LyingKernel;
  let hub: TestKernel;
  let home: string;
  const goalsOf = async () => {
    const feed = (await hub.gql(graphql(`{ feed { working { id } blocked { id } completed { id } } }`))).data.feed;
    return Object.values(feed).flatMap((column) => column.map((g) => g.id as string));
  };
  beforeAll(async () => {
    // It tells its own name truly, then says its ids and its usage are the hub's own machine's,
    // hands back batch ids that name this machine's batches too, one session with no name, and
    // a text block with no text
    liar = await startLyingKernel(remote.port, (message) =>
      message
        .replaceAll('"gpubox:', '"laptop:')
        .replaceAll('"key":"gpubox"', '"key":"laptop"')
        .replaceAll('"batchId":"', '"batchId":"b1,laptop:')
        .replaceAll('"name":"poison"', '"name":null')
        .replaceAll('"text":"a frame that lies"', '"text":null')
        .replaceAll('"id":"laptop:liar4","turnCount":1', `"id":"laptop:liar4","turnCount":${2 ** 40}`)
        // a time as a number: DateTime takes it, the merge's order cannot
        .replace(/("id":"laptop:liar4","name":"[^"]*","_loomUpdatedAt":)"[^"]*"/, '$11714557600000'),
    );
    ({ server, home } = await ssh2ServerTo(liar.port));
    const { assistant } = await import('../helpers/records');
    writeFileSync(
      join(remoteRoot, '-home-dev-demo', 'liar1.jsonl'),
      line(prompt('l-p1', null, 'a session the liar claims')) + line(assistant('l-a1', 'l-p1', [], 'end_turn')),
    );
    writeFileSync(join(remoteRoot, '-home-dev-demo', 'liar2.jsonl'), line(prompt('l2-p1', null, 'poison')));
    writeFileSync(join(remoteRoot, '-home-dev-demo', 'liar4.jsonl'), line(prompt('l4-p1', null, 'a session of too many turns')));
    await until(
      async () => (await remote.gql(graphql(`{ a: session(id: "gpubox:liar2") { id } b: session(id: "gpubox:liar4") { id } }`))).data.b,
      'the remote indexing the new sessions',
    );
    hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home, ...FAST_LINKS } });
    expect((await hub.gql(LINK, { target: `me@127.0.0.1:${server.port}`, name: 'liar' })).data.linkHost.status!.state).toBe('UP');
  });
  afterAll(async () => {
    await hub?.close();
    await liar?.close();
    await server?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it("has every id and usage key it sends named by its alias, so nothing it says points the hub's clients at this machine", async () => {
    const ids = (await hub.gql(graphql(`{ sessions(first: 100) { nodes { id } } }`))).data.sessions.nodes.map((n) => n.id);
    expect(ids).toContain('liar:liar1');
    expect(ids.filter((id: string) => id.startsWith('laptop:'))).toEqual(['laptop:hub1']);
    // forwarded whole (the hub's fast path) and executed on the hub alike
    expect((await hub.gql(graphql(`{ session(id: "liar:liar1") { id turns { id } } }`))).data.session).toEqual({
      id: 'liar:liar1',
      turns: [{ id: expect.stringMatching(/^liar:liar1:/) }],
    });
    const goals = await goalsOf();
    expect(goals.some((id) => id.startsWith('liar:liar1/'))).toBe(true);
    expect(goals.filter((id) => !id.startsWith('liar:') && !id.startsWith('laptop:hub1/'))).toEqual([]);
    const hosts = (await hub.gql(graphql(`{ usage(groupBy: HOST) { key } }`))).data.usage.map((r) => r.key);
    expect(hosts).toContain('liar');
    expect(hosts).not.toContain('laptop'); // the hub's own session made no API call
    // and the lies were told: the relay changed the kernel's answers on their way
    expect(liar.lies).toBeGreaterThan(0);
  });

  it("has what does not fit the schema left out, and only that, where one bad session would blank every host's list", async () => {
    const listed = async (selection: string) =>
      (await hub.gql<{ sessions: { nodes: { id: string }[] } }>(`{ sessions(first: 100) { nodes { ${selection} } } }`)).data.sessions.nodes.map((n) => n.id);
    expect(await listed('id name')).toEqual(expect.arrayContaining(['laptop:hub1', 'liar:liar1']));
    expect(await listed('id name')).not.toContain('liar:liar2');
    expect(await listed('id name')).not.toContain('liar:liar4');
    expect(await listed('id')).toContain('liar:liar2');
    // an Int past 32 bits fails the hub's schema as a null name does
    expect(await listed('id turnCount')).toEqual(expect.arrayContaining(['laptop:hub1', 'liar:liar1', 'liar:liar2']));
    expect(await listed('id turnCount')).not.toContain('liar:liar4');
    // what the client's own query leaves out is not asked of the host
    expect(await listed('id name @include(if: false)')).toEqual(expect.arrayContaining(['liar:liar1', 'liar:liar2']));
    expect((await hub.gql(graphql(`{ session(id: "liar:liar1") { id name @skip(if: true) } }`))).data.session).toEqual({ id: 'liar:liar1' });
    const blocks = await hub.gql(graphql(`{ events(sessionId: "liar:liar1") { content { ... on TextBlock { text } } } }`));
    expect(blocks.errors).toBeUndefined();
    expect(blocks.data.events[0].content).toEqual([{ text: 'a session the liar claims' }]);
    // forwarded whole, the host's own answer is refused with a reason
    const one = await hub.gql(graphql(`{ session(id: "liar:liar2") { id name } }`));
    expect(one.errors![0]).toMatchObject({
      extensions: { code: 'UNAVAILABLE' },
      message: 'liar answered with data that does not fit the schema; its part is left out',
    });
    // the host's lanes are left out; this machine's stay
    const lanes = (await hub.gql(graphql(`{ timeline(from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z") { session { id name } } }`))).data.timeline.map(
      (l) => l.session.id,
    );
    expect(lanes).toContain('laptop:hub1');
  });

  it('is told only of its own sessions when a timeline is narrowed to sessions of several hosts', async () => {
    const LANES = graphql(`query($s: [ID!]) { timeline(from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z", sessions: $s) { session { id } } }`);
    const lanes = (await hub.gql(LANES, { s: ['laptop:hub1', 'liar:liar1'] })).data.timeline.map((l) => l.session.id);
    expect(lanes.toSorted()).toEqual(['laptop:hub1', 'liar:liar1']);
    expect(liar.heard.filter((m) => m.includes('timeline')).at(-1)).toContain('"gpubox:liar1"');
    expect(liar.heard.some((m) => m.includes('hub1'))).toBe(false);
    // the same list made of one variable per session
    const EACH = graphql(
      `query($a: ID!, $b: ID!) { timeline(from: "2020-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z", sessions: [$a, $b]) { session { id } } }`,
    );
    const each = (await hub.gql(EACH, { a: 'laptop:hub1', b: 'liar:liar1' })).data.timeline.map((l) => l.session.id);
    expect(each.toSorted()).toEqual(['laptop:hub1', 'liar:liar1']);
    expect(liar.heard.filter((m) => m.includes('timeline')).at(-1)).toContain('gpubox:liar1');
    expect(liar.heard.some((m) => m.includes('hub1'))).toBe(false);
  });

  it("has a batch id that would name other hosts' batches refused, so the next undo cannot reach them", async () => {
    const goal = (await goalsOf()).find((id) => id.startsWith('liar:liar1/'));
    const clear = await hub.gql(graphql(`mutation($ids: [ID!]!) { clearGoals(ids: $ids, idempotencyKey: "lie") { batchId } }`), { ids: [goal!] });
    expect(clear.errors![0]).toMatchObject({
      extensions: { code: 'UNAVAILABLE' },
      message: expect.stringMatching(/^liar answered with a batch id that is not one/),
    });
  });

  it('asks the host for a change stream again when the host ends it while staying up', async () => {
    const changed: string[] = [];
    const iterator = iterate(hub.ws(), graphql(`subscription { sessionsChanged { sessionId } }`));
    const consume = (async () => {
      for await (const r of iterator) changed.push(r.data!.sessionsChanged.sessionId);
    })();
    const asked = () => liar.heard.filter((m) => m.includes('"subscribe"') && m.includes('sessionsChanged')).map((m) => JSON.parse(m).id as string);
    await until(() => asked().length === 1, 'the hub asking the host for its changes');
    liar.tell(JSON.stringify({ id: asked()[0], type: 'error', payload: [{ message: 'ended by the host' }] }));
    await until(() => asked().length === 2, 'the hub asking again', 10_000);
    writeFileSync(join(remoteRoot, '-home-dev-demo', 'liar3.jsonl'), line(prompt('l3-p1', null, 'a change after the stream came back')));
    await until(() => changed.includes('liar:liar3'), 'the new session announced through the hub');
    await iterator.return?.();
    await consume;
  });

  it('shows a host that is up but slow as last seen, instead of holding the whole list', async () => {
    const SESSIONS = graphql(`{ sessions(first: 100) { nodes { id name } } }`);
    expect((await hub.gql(SESSIONS)).data.sessions.nodes.map((n) => n.id)).toContain('liar:liar1');
    // every message of an operation that asks for sessions, its `complete` too
    liar.hold = (message) => {
      const { id } = JSON.parse(message) as { id?: string };
      return !!id && liar.heard.some((asked) => asked.includes(id) && asked.includes('sessions('));
    };
    // a change there: the hub drops the page it kept, and has to ask the host again
    const turns = async () => (await remote.gql(graphql(`{ session(id: "gpubox:liar1") { turnCount } }`))).data.session!.turnCount;
    const before = await turns();
    appendFileSync(join(remoteRoot, '-home-dev-demo', 'liar1.jsonl'), line(prompt('l-p2', 'l-a1', 'one more turn')));
    await until(async () => (await turns()) > before, 'the remote indexing the new turn');
    await new Promise((resolve) => setTimeout(resolve, 300)); // its new version on its way to the hub
    // held, the host's answer would never come: the list is served with its part as last seen
    const slow = (await hub.gql(SESSIONS)).data.sessions.nodes.map((n) => n.id);
    expect(slow).toEqual(expect.arrayContaining(['laptop:hub1', 'liar:liar1']));
    expect(liar.held()).toBeGreaterThan(0);
    liar.release();
    // the list came after the hub's 3 s for a slow host; without it, after the operation's 15 s
  }, 10_000);

  it('ends a session stream with UNAVAILABLE at a frame that does not fit, and asks the host for it no more', async () => {
    const file = join(remoteRoot, '-home-dev-demo', 'liar5.jsonl');
    writeFileSync(file, line(prompt('l5-p1', null, 'a stream through a liar')));
    await until(async () => (await hub.gql(graphql(`{ session(id: "liar:liar5") { id } }`))).data.session, 'the hub seeing the new session');
    const texts: (string | null | undefined)[] = [];
    let ended: unknown;
    const iterator = iterate(hub.ws(), graphql(`subscription { sessionStream(sessionId: "liar:liar5") { atoms { content { ... on TextBlock { text } } } } }`));
    const consume = (async () => {
      try {
        for await (const r of iterator) texts.push(...r.data!.sessionStream.atoms.flatMap((a) => a.content.map((c) => ('text' in c ? c.text : undefined))));
      } catch (error) {
        ended = error;
      }
    })();
    await until(() => texts.includes('a stream through a liar'), 'the first frame through the hub');
    // the relay turns this text into a null, which TextBlock.text may not be
    appendFileSync(file, line(prompt('l5-p2', 'l5-p1', 'a frame that lies')));
    await consume;
    expect(ended).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^liar sent a stream frame that does not fit the schema; the stream ends after cursor \d+$/),
        extensions: { code: 'UNAVAILABLE' },
      }),
    ]);
    expect(texts).toEqual(['a stream through a liar']);
    // the host would send the same frame again on every resume: it is not asked again
    await sleep(1_200);
    expect(liar.heard.filter((m) => m.includes('sessionStream') && m.includes('liar5')).length).toBe(1);
  });

  // last: it takes the host down
  it('keeps what the host last answered apart for queries whose fragments share a name, once it is down', async () => {
    const A = graphql(`{ sessions(first: 100) { nodes { ...F } } } fragment F on Session { id name }`);
    const B = graphql(`{ sessions(first: 100) { nodes { ...F } } } fragment F on Session { id turnCount }`);
    const a = await hub.gql(A);
    const b = await hub.gql(B);
    expect(a.data.sessions.nodes).toContainEqual({ id: 'liar:liar1', name: 'a session the liar claims' });
    await liar.close();
    await until(
      async () => (await hub.gql(graphql(`{ hosts { name status { state } } }`))).data.hosts.find((h) => h.name === 'liar')?.status?.state === 'DOWN',
      'the liar DOWN',
    );
    expect(await hub.gql(A)).toEqual(a);
    expect(await hub.gql(B)).toEqual(b);
  });
});
