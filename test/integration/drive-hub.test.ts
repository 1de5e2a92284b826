import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { configureRemote, FAST_LINKS, iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { until } from '../helpers/wait';

// Driving a session on a linked host from the hub, through a real OpenSSH sshd: the host's kernel
// runs the stand-in `claude` (test/stand-ins/claude-sdk.mjs) through the Agent SDK; the hub only
// relays, after the host's trust tier allows it (an isolated host is refused before anything is
// sent). The host's audit log names the hub as the actor; the hub's own log holds what it sent.

const STAND_IN = join(import.meta.dirname, '..', 'stand-ins', 'claude-sdk.mjs');
/** generous: two cores, two kernels, sshd and the stand-in, and another engineer's tests */
const SLOW = 30_000;
/** a test that waits on the stand-in through the hub */
const DRIVE_TEST_MS = 60_000;

const START = graphql(`
  mutation ($host: String!, $dir: String!, $prompt: String!, $key: String!) {
    startSession(host: $host, dir: $dir, prompt: $prompt, idempotencyKey: $key) { sessionId prompt { id state text sentBy } }
  }
`);
const SEND = graphql(
  `mutation ($id: ID!, $text: String!, $key: String!) { sendPrompt(sessionId: $id, text: $text, idempotencyKey: $key) { id sessionId state sentBy } }`,
);
const SESSION = graphql(`
  query ($id: ID!) {
    session(id: $id) { id holder sentPrompts { id text state atomId } }
    transcript(sessionId: $id, limit: 100) { entries { id content { __typename ... on TextBlock { text } } } }
  }
`);
const SENT_PROMPTS_CHANGED = graphql(`subscription ($id: ID!) { sentPromptsChanged(sessionId: $id) { id text state atomId } }`);
const ACTIONS = graphql(`{ actions { actor action host sessionId summary result message } }`);
const HOST_ACTIONS = graphql(`query ($host: String!) { actions(host: $host) { actor action host sessionId summary result } }`);
const DIRECTORIES = graphql(`query ($host: String) { projectDirectories(host: $host) { dir sessionCount lastActiveAt } }`);
const LINK = graphql(`mutation ($target: String!) { linkHost(target: $target, name: "gpu") { status { state } } }`);
const TRUST = graphql(`mutation ($trust: TrustTier!) { setHostTrust(name: "gpu", trust: $trust) { trust } }`);

let sshd: TestSshd;
let root: string;
let projects: string;
let remote: TestKernel;
let hub: TestKernel;

beforeAll(async () => {
  sshd = await startSshd();
  root = mkdtempSync(join(tmpdir(), 'loom-drive-hub-'));
  projects = join(root, 'claude', 'projects');
  // one session the host already ran, in /home/dev/train: a directory to offer
  mkdirSync(join(projects, '-home-dev-train'), { recursive: true });
  writeFileSync(join(projects, '-home-dev-train', 's1.jsonl'), line(prompt('p1', null, 'train the model', { cwd: '/home/dev/train', sessionId: 's1' })));
  mkdirSync(join(root, 'work', 'api'), { recursive: true });
  // the folder was accepted at a terminal on the host once (Claude Code's record): Loom may start there
  writeFileSync(join(root, 'claude', '.claude.json'), JSON.stringify({ projects: { [join(root, 'work', 'api')]: { hasTrustDialogAccepted: true } } }));
  mkdirSync(join(root, 'work', 'secret'), { recursive: true });
  // the stand-in writes where Claude Code would: $CLAUDE_CONFIG_DIR/projects, the host's projects root
  process.env.CLAUDE_CONFIG_DIR = join(root, 'claude');
  remote = await startTestKernel(projects, { hostName: 'gpubox', stateDir: join(root, 'gpu-state'), claudePath: STAND_IN });
  mkdirSync(join(root, 'hub-projects'));
  hub = await startTestKernel(join(root, 'hub-projects'), { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } });
  configureRemote(hub, { name: 'gpu', target: `${sshd.user}@127.0.0.1:${sshd.port}`, stateDir: join(root, 'gpu-state') });
  expect((await hub.gql(LINK, { target: `${sshd.user}@127.0.0.1:${sshd.port}` })).data.linkHost.status?.state).toBe('UP');
  expect((await hub.gql(TRUST, { trust: 'DIRECTED' })).data.setHostTrust.trust).toBe('DIRECTED');
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await remote?.close();
  await sshd?.close();
  delete process.env.CLAUDE_CONFIG_DIR;
  rmSync(root, { recursive: true, force: true });
});

/** A session as the hub serves it, with its transcript's texts; null until the host has read it. */
async function throughHub(id: string) {
  const res = await hub.gql(SESSION, { id });
  if (res.errors?.every((e) => e.extensions?.code === 'NOT_FOUND')) return null;
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  const texts = res.data.transcript.entries.flatMap((a) => a.content.flatMap((b) => (b.__typename === 'TextBlock' ? [b.text] : [])));
  return res.data.session && { ...res.data.session, texts };
}

/** The project directory Claude Code writes a session of `dir` under. */
const projectDirOf = (dir: string) => join(projects, dir.replace(/[^A-Za-z0-9]/g, '-'));

describe('driving a session on a linked host from the hub', () => {
  it(
    'starts a session on a directed host, sends it a prompt that lands, and both audit logs hold what was done',
    async () => {
      const dir = join(root, 'work', 'api');
      const started = await hub.gql(START, { host: 'gpu', dir, prompt: 'hello from the hub', key: 'hub-start-1' });
      expect(started.errors).toBeUndefined();
      const id = started.data.startSession.sessionId;
      expect(id).toMatch(/^gpu:/);
      expect(started.data.startSession.prompt).toMatchObject({ text: 'hello from the hub', sentBy: 'hub:laptop' });
      expect(started.data.startSession.prompt.id).toMatch(/^gpu:/);

      // the session runs on the host, and the hub serves it under its alias
      await until(async () => (await throughHub(id))?.texts.includes('Echo: hello from the hub'), 'the first reply, through the hub', SLOW);
      expect(existsSync(projectDirOf(dir))).toBe(true);
      const hostKey = id.replace(/^gpu:/, '');
      expect((await remote.gql(SESSION, { id: `gpubox:${hostKey}` })).data.session?.holder).toBe('LOOM');

      // a prompt sent through the hub lands: the hub serves it DELIVERED, as the atom it became
      const sent = await hub.gql(SEND, { id, text: 'now add tests', key: 'hub-send-1' });
      expect(sent.errors).toBeUndefined();
      expect(sent.data.sendPrompt).toMatchObject({ sessionId: id, sentBy: 'hub:laptop' });
      expect(sent.data.sendPrompt.id).toMatch(/^gpu:/);
      expect(['PENDING', 'DELIVERED']).toContain(sent.data.sendPrompt.state);
      const landed = await until(
        async () => (await throughHub(id))?.sentPrompts.find((p) => p.id === sent.data.sendPrompt.id && p.state === 'DELIVERED'),
        'the sent prompt DELIVERED, through the hub',
        SLOW,
      );
      expect(landed.atomId).toMatch(new RegExp(`^${id}:`));
      await until(async () => (await throughHub(id))?.texts.includes('Echo: now add tests'), 'the second reply, through the hub', SLOW);
      const session = (await throughHub(id))!;
      expect(session.sentPrompts.map((p) => [p.text, p.state])).toEqual([
        ['hello from the hub', 'DELIVERED'],
        ['now add tests', 'DELIVERED'],
      ]);
      expect(session.texts.filter((t) => t === 'now add tests')).toHaveLength(1);

      // the host's log names the hub as the actor: read on the host, and through the hub
      const onHost = (await remote.gql(ACTIONS)).data.actions;
      expect(onHost.slice(0, 2).map((a) => [a.actor, a.action, a.sessionId, a.result])).toEqual([
        ['hub:laptop', 'sendPrompt', `gpubox:${hostKey}`, 'OK'],
        ['hub:laptop', 'startSession', null, 'OK'],
      ]);
      const hostLogViaHub = (await hub.gql(HOST_ACTIONS, { host: 'gpu' })).data.actions;
      expect(hostLogViaHub.slice(0, 2).map((a) => [a.actor, a.action, a.sessionId])).toEqual([
        ['hub:laptop', 'sendPrompt', id],
        ['hub:laptop', 'startSession', null],
      ]);
      // the hub's own log: what it sent, where, and how it ended
      const onHub = (await hub.gql(ACTIONS)).data.actions;
      expect(onHub.slice(0, 2)).toMatchObject([
        { actor: 'local', action: 'sendPrompt', host: 'gpu', summary: 'send a prompt', result: 'OK' },
        { actor: 'local', action: 'startSession', host: 'gpu', summary: `start in ${dir}`, result: 'OK' },
      ]);
    },
    DRIVE_TEST_MS,
  );

  it(
    'refuses startSession and sendPrompt for an isolated host with FORBIDDEN, and nothing starts there',
    async () => {
      await hub.gql(TRUST, { trust: 'ISOLATED' });
      try {
        const hostLogBefore = (await remote.gql(ACTIONS)).data.actions.length;
        const projectDirsBefore = readdirSync(projects).sort();
        const dir = join(root, 'work', 'secret');
        const refusedStart = await hub.gql(START, { host: 'gpu', dir, prompt: 'never run', key: 'hub-start-isolated' });
        expect(refusedStart.errors?.[0].extensions?.code).toBe('FORBIDDEN');
        expect(refusedStart.errors?.[0].message).toMatch(/gpu is isolated/);
        // the session the host ran in /home/dev/train, seen through the hub
        const refusedSend = await hub.gql(SEND, { id: 'gpu:s1', text: 'never sent', key: 'hub-send-isolated' });
        expect(refusedSend.errors?.[0].extensions?.code).toBe('FORBIDDEN');
        expect(refusedSend.errors?.[0].message).toMatch(/gpu is isolated/);

        // the host heard nothing: no action in its log, no transcript for the directory, no prompt kept
        const hostLog = (await remote.gql(ACTIONS)).data.actions;
        expect(hostLog).toHaveLength(hostLogBefore);
        expect(hostLog.filter((a) => a.action === 'startSession' && a.summary.includes(dir))).toEqual([]);
        expect(existsSync(projectDirOf(dir))).toBe(false);
        expect(readdirSync(projects).sort()).toEqual(projectDirsBefore);
        expect((await remote.gql(SESSION, { id: 'gpubox:s1' })).data.session?.sentPrompts).toEqual([]);

        // the hub logged both refusals
        expect((await hub.gql(ACTIONS)).data.actions.slice(0, 2)).toMatchObject([
          { actor: 'local', action: 'sendPrompt', host: 'gpu', result: 'FORBIDDEN' },
          { actor: 'local', action: 'startSession', host: 'gpu', summary: `start in ${dir}`, result: 'FORBIDDEN' },
        ]);
      } finally {
        await hub.gql(TRUST, { trust: 'DIRECTED' });
      }
    },
    DRIVE_TEST_MS,
  );

  it(
    "lists the host's project directories through the hub, as the host itself lists them",
    async () => {
      const viaHub = await hub.gql(DIRECTORIES, { host: 'gpu' });
      expect(viaHub.errors).toBeUndefined();
      const direct = (await remote.gql(DIRECTORIES, {})).data.projectDirectories;
      expect(viaHub.data.projectDirectories).toEqual(direct);
      expect(viaHub.data.projectDirectories).toContainEqual(expect.objectContaining({ dir: '/home/dev/train', sessionCount: 1 }));
      // the hub's own machine ran nothing
      expect((await hub.gql(DIRECTORIES, {})).data.projectDirectories).toEqual([]);
    },
    DRIVE_TEST_MS,
  );

  it(
    "follows a host session's sent prompts through the hub's sentPromptsChanged until the one sent settles DELIVERED",
    async () => {
      const started = await hub.gql(START, { host: 'gpu', dir: join(root, 'work', 'api'), prompt: 'watch this', key: 'hub-start-stream' });
      expect(started.errors).toBeUndefined();
      const id = started.data.startSession.sessionId;
      await until(async () => (await throughHub(id))?.texts.includes('Echo: watch this'), 'the first reply, through the hub', SLOW);

      const changes = iterate(hub.ws(), SENT_PROMPTS_CHANGED, { id });
      const sent = await hub.gql(SEND, { id, text: 'and this too', key: 'hub-send-stream' });
      expect(sent.errors).toBeUndefined();
      const seen: string[] = [];
      for await (const frame of changes) {
        expect(frame.errors).toBeUndefined();
        const mine = frame.data?.sentPromptsChanged.find((p) => p.id === sent.data.sendPrompt.id);
        if (mine) seen.push(mine.state);
        if (mine?.state === 'DELIVERED') {
          expect(mine).toMatchObject({ text: 'and this too', atomId: expect.stringMatching(new RegExp(`^${id}:`)) });
          break;
        }
      }
      expect(seen.at(-1)).toBe('DELIVERED');
      expect((await throughHub(id))?.sentPrompts.find((p) => p.id === sent.data.sendPrompt.id)?.state).toBe('DELIVERED');
    },
    DRIVE_TEST_MS,
  );
});
