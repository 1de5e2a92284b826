import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { until } from '../helpers/wait';

// Driving sessions: the kernel runs a stand-in `claude` (test/stand-ins/claude-sdk.mjs) through
// the real Agent SDK, which speaks the SDK's stream-json protocol and writes a real-shaped
// transcript under the projects tree the kernel reads.

const STAND_IN = join(import.meta.dirname, '..', 'stand-ins', 'claude-sdk.mjs');

let root: string;
let workDir: string;
let kernel: TestKernel;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-drive-'));
  workDir = join(root, 'work', 'api');
  mkdirSync(workDir, { recursive: true });
  mkdirSync(join(root, 'claude', 'projects'), { recursive: true });
  // the person accepted the folder at a terminal once: Claude Code's record of it
  writeFileSync(join(root, 'claude', '.claude.json'), JSON.stringify({ projects: { [workDir]: { hasTrustDialogAccepted: true } } }));
  // the stand-in writes where Claude Code would: $CLAUDE_CONFIG_DIR/projects
  process.env.CLAUDE_CONFIG_DIR = join(root, 'claude');
  kernel = await startTestKernel(join(root, 'claude', 'projects'), { stateDir: join(root, 'state'), claudePath: STAND_IN });
});
afterEach(async () => {
  await kernel.close();
  delete process.env.CLAUDE_CONFIG_DIR;
  delete process.env.STAND_IN_RESUME_SHAPE;
  rmSync(root, { recursive: true, force: true });
});

const START = graphql(`
  mutation ($dir: String!, $prompt: String!, $key: String!) {
    startSession(dir: $dir, prompt: $prompt, idempotencyKey: $key) { sessionId prompt { id state text } }
  }
`);
const SEND = graphql(
  `mutation ($id: ID!, $text: String!, $key: String!) { sendPrompt(sessionId: $id, text: $text, idempotencyKey: $key) { id state reason } }`,
);
const INTERRUPT = graphql(`mutation ($id: ID!, $key: String!) { interrupt(sessionId: $id, idempotencyKey: $key) }`);
const RESUME = graphql(
  `mutation ($id: ID!, $prompt: String!, $key: String!) { resumeSession(sessionId: $id, prompt: $prompt, idempotencyKey: $key) { id state } }`,
);
const SESSION = graphql(`
  query ($id: ID!) {
    session(id: $id) {
      id holder driving files { fsid }
      sentPrompts { id text state atomId reason }
    }
    transcript(sessionId: $id, limit: 100) { entries { id type author { kind via } content { __typename ... on TextBlock { text } } } }
  }
`);
const SESSIONS_CHANGED = graphql(`subscription { sessionsChanged { kind session { id } } }`);
const ACTIONS = graphql(`{ actions { actor action sessionId summary result } }`);

type SessionData = NonNullable<Awaited<ReturnType<typeof session>>>;
const session = async (id: string) => {
  const res = await kernel.gql(SESSION, { id });
  // a session Claude Code has just started may not have been read yet
  if (res.errors?.every((e) => e.extensions?.code === 'NOT_FOUND')) return null;
  if (res.errors) throw new Error(JSON.stringify(res.errors));
  return res.data.session && { ...res.data.session, atoms: res.data.transcript.entries };
};
/** The texts of a session's transcript, in order. */
const texts = (s: SessionData | null) => (s?.atoms ?? []).flatMap((a) => a.content.flatMap((b) => (b.__typename === 'TextBlock' ? [b.text] : [])));

async function start(prompt: string): Promise<string> {
  const started = await kernel.gql(START, { dir: workDir, prompt, key: `start-${prompt}` });
  expect(started.errors).toBeUndefined();
  return started.data.startSession.sessionId;
}

describe('startSession', () => {
  it('starts Claude Code in the directory, and the new session appears in sessionsChanged and its transcript', async () => {
    const changes = iterate(kernel.ws(), SESSIONS_CHANGED);
    const id = await start('hello there');
    for await (const frame of changes) if (frame.data?.sessionsChanged.session?.id === id) break;
    await until(async () => texts(await session(id)).includes('Echo: hello there'), 'the reply to the first prompt');
    const s = (await session(id))!;
    expect(s.sentPrompts.map((p) => [p.text, p.state])).toEqual([['hello there', 'DELIVERED']]);
    expect(s.sentPrompts[0].atomId).toMatch(new RegExp(`^${id}:`));
    expect(readdirSync(join(root, 'claude', 'projects'))).toEqual([workDir.replace(/[^A-Za-z0-9]/g, '-')]);
  });

  it('refuses a directory that is not there, and logs the refusal', async () => {
    const res = await kernel.gql(START, { dir: join(root, 'nowhere'), prompt: 'hi', key: 'k-nowhere' });
    expect(res.errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await kernel.gql(ACTIONS)).data.actions[0]).toMatchObject({ action: 'startSession', result: 'BAD_USER_INPUT', actor: 'local' });
  });

  it('refuses a directory Claude Code never worked in: its project settings could run hooks unasked', async () => {
    const fresh = join(root, 'work', 'cloned-yesterday');
    mkdirSync(fresh);
    const res = await kernel.gql(START, { dir: fresh, prompt: 'hi', key: 'k-fresh' });
    expect(res.errors?.[0]).toMatchObject({
      extensions: { code: 'BAD_USER_INPUT' },
      message: expect.stringMatching(/has not worked in .* yet: run claude there once/),
    });
  });

  it('starts once for one idempotency key', async () => {
    const [a, b] = await Promise.all([
      kernel.gql(START, { dir: workDir, prompt: 'once', key: 'same' }),
      kernel.gql(START, { dir: workDir, prompt: 'once', key: 'same' }),
    ]);
    expect(a.data.startSession.sessionId).toBe(b.data.startSession.sessionId);
    expect((await kernel.gql(ACTIONS)).data.actions.filter((x) => x.action === 'startSession')).toHaveLength(1);
  });
});

describe('sendPrompt into a driven session', () => {
  it('queues a prompt sent mid-turn; it lands once, as the atom the pending prompt names', async () => {
    const id = await start('[slow:1500] build it');
    await until(async () => (await session(id))?.driving === true, 'the driven turn to start');
    const sent = await kernel.gql(SEND, { id, text: 'also add tests', key: 'send-1' });
    expect(sent.data.sendPrompt.state).toBe('PENDING');
    await until(async () => (await session(id))!.sentPrompts.every((p) => p.state === 'DELIVERED'), 'every sent prompt to land');
    const s = (await session(id))!;
    expect(texts(s).filter((t) => t === 'also add tests')).toHaveLength(1);
    const landed = s.sentPrompts.find((p) => p.text === 'also add tests')!;
    expect(s.atoms.find((a) => a.id === landed.atomId)?.content).toEqual([{ __typename: 'TextBlock', text: 'also add tests' }]);
    await until(async () => texts(await session(id)).includes('Echo: also add tests'), 'the reply to the prompt sent mid-turn');
  });

  it('interrupts a working turn: the turn ends interrupted and the process takes the next prompt', async () => {
    const id = await start('[slow:5000] long job');
    await until(async () => (await session(id))?.driving === true, 'the driven turn to start');
    const interrupted = await kernel.gql(INTERRUPT, { id, key: 'int-1' });
    expect(interrupted.data.interrupt).toBe(true);
    await until(async () => texts(await session(id)).some((t) => t.startsWith('[Request interrupted by user')), 'the interrupt line');
    await until(async () => (await session(id))!.driving === false, 'the interrupted turn to end');
    await kernel.gql(SEND, { id, text: 'next one', key: 'send-2' });
    await until(async () => texts(await session(id)).includes('Echo: next one'), 'the reply after the interrupt');
    expect((await session(id))!.holder).toBe('LOOM');
  });

  it('asks permission through canUseTool as a request answered like any other', async () => {
    const id = await start('[tool:Bash:ls -la] look around');
    const PENDING = graphql(`{ permissionRequests { id toolName input sessionId } }`);
    await until(async () => (await kernel.gql(PENDING)).data.permissionRequests.length === 1, "the driven session's permission request");
    const [request] = (await kernel.gql(PENDING)).data.permissionRequests;
    expect(request).toMatchObject({ toolName: 'Bash', sessionId: id, input: { command: 'ls -la' } });
    // the same feed card as a terminal's prompt: the session's goal is blocked on it
    const BLOCKED = graphql(`{ feed { blocked { session { id } block { request { id } } } } }`);
    await until(async () => (await kernel.gql(BLOCKED)).data.feed.blocked.some((g) => g.block?.request?.id === request.id), 'the blocked feed card');
    expect((await kernel.gql(BLOCKED)).data.feed.blocked.find((g) => g.block?.request?.id === request.id)?.session?.id).toBe(id);
    const ALLOW = graphql(`mutation ($id: ID!, $key: String!) { allowTool(requestId: $id, idempotencyKey: $key) { state } }`);
    expect((await kernel.gql(ALLOW, { id: request.id, key: 'allow-1' })).data.allowTool.state).toBe('ANSWERED');
    await until(async () => texts(await session(id)).includes('Echo: [tool:Bash:ls -la] look around'), 'the reply after the allowed tool');
  });

  it('marks a prompt the process died holding as dropped, with why', async () => {
    const id = await start('[slow:3000] work');
    await until(async () => (await session(id))?.driving === true, 'the driven turn to start');
    await kernel.gql(SEND, { id, text: '[die]', key: 'die' });
    await kernel.gql(SEND, { id, text: 'never read', key: 'never' });
    await until(
      async () => (await session(id))!.sentPrompts.find((p) => p.text === 'never read')?.state === 'DROPPED',
      'the prompt the process died holding to be dropped',
    );
    const s = (await session(id))!;
    expect(s.sentPrompts.find((p) => p.text === 'never read')?.reason).toMatch(/Claude Code (stopped|ended) before reading it/);
    expect(s.holder).toBe('NONE');
    const refused = await kernel.gql(SEND, { id, text: 'anyone?', key: 'nobody' });
    expect(refused.errors?.[0].extensions?.code).toBe('CONFLICT');
  });
});

describe('resumeSession', () => {
  for (const shape of ['same', 'copy'] as const) {
    it(`continues a session nothing holds as the same session (${shape === 'same' ? 'appended to its file, as 2.1.x does' : 'a new file with a copy, as 1.0.x did'})`, async () => {
      process.env.STAND_IN_RESUME_SHAPE = shape;
      const id = await start('first part');
      await until(async () => texts(await session(id)).includes('Echo: first part'), "the first part's reply");
      await kernel.gql(SEND, { id, text: '[die]', key: `die-${shape}` }); // the process ends: nothing holds the session
      await until(async () => (await session(id))!.holder === 'NONE', 'the session to be held by nothing');
      const resumed = await kernel.gql(RESUME, { id, prompt: 'second part', key: `resume-${shape}` });
      expect(resumed.errors).toBeUndefined();
      await until(async () => texts(await session(id)).includes('Echo: second part'), "the resumed part's reply");
      const s = (await session(id))!;
      expect(texts(s).filter((t) => t.startsWith('Echo:'))).toEqual(['Echo: first part', 'Echo: second part']);
      expect(s.files.length).toBe(shape === 'same' ? 1 : 2);
      const SESSIONS = graphql(`{ sessions { edges { node { id } } } }`);
      expect((await kernel.gql(SESSIONS)).data.sessions.edges.map((e) => e.node.id)).toEqual([id]);
    });
  }

  it('lets one of two resumes sent at once through: the other finds the session taken', async () => {
    const id = await start('short');
    await until(async () => texts(await session(id)).includes('Echo: short'), 'the first reply');
    await kernel.gql(SEND, { id, text: '[die]', key: 'die-twice' });
    await until(async () => (await session(id))!.holder === 'NONE', 'the session to be held by nothing');
    const both = await Promise.all([kernel.gql(RESUME, { id, prompt: 'one', key: 'r1' }), kernel.gql(RESUME, { id, prompt: 'two', key: 'r2' })]);
    expect(both.map((r) => r.errors?.[0].extensions?.code ?? 'OK').sort()).toEqual(['CONFLICT', 'OK']);
  });

  it('refuses to resume a session a process holds: two writers would corrupt it', async () => {
    const id = await start('[slow:3000] busy');
    await until(async () => (await session(id))?.holder === 'LOOM', 'Loom to hold the session');
    const res = await kernel.gql(RESUME, { id, prompt: 'again', key: 'resume-busy' });
    expect(res.errors?.[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(res.errors?.[0].message).toMatch(/already runs this session/);
  });
});

it('stops a driven process cleanly with the kernel: its running turn is interrupted, and nothing holds the session after', async () => {
  const id = await start('[slow:30000] a long job');
  await until(async () => (await session(id))?.driving === true, 'the long turn to start');
  const stopping = Date.now();
  await kernel.driving.stop();
  expect(Date.now() - stopping).toBeLessThan(5000);
  await until(async () => texts(await session(id)).some((t) => t.startsWith('[Request interrupted by user')), 'the interrupt line');
  expect((await session(id))!.holder).toBe('NONE');
});

it('writes each action to the audit log with the session it touched', async () => {
  const id = await start('audited');
  await kernel.gql(SEND, { id, text: 'and this', key: 'audit-send' });
  const actions = (await kernel.gql(ACTIONS)).data.actions;
  expect(actions.slice(0, 2).map((a) => [a.action, a.sessionId, a.result])).toEqual([
    ['sendPrompt', id, 'OK'],
    ['startSession', null, 'OK'],
  ]);
  expect(readFileSync(join(kernel.stateDir, 'actions.jsonl'), 'utf8')).toContain('"action":"sendPrompt"');
});
