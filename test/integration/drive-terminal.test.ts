import { type ChildProcessWithoutNullStreams, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { installHooks, removeHookedDir } from '../helpers/stand-in-claude';
import { until } from '../helpers/wait';

// A prompt for a session a terminal holds: queued, and delivered at the session's turn end by
// the Stop hook `loom hooks install` puts in settings.json. The "terminal" is the stand-in
// Claude Code (test/stand-ins/claude-sdk.mjs) run by the test itself, not by Loom, with Loom's
// hooks in its settings: Loom never writes into it, only answers its Stop hook.

const STAND_IN = join(import.meta.dirname, '..', 'stand-ins', 'claude-sdk.mjs');
const ACTION_HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-action-hook.mjs');
const STATE_HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-hook.sh');

let root: string;
let workDir: string;
let kernel: TestKernel;
let terminal: ChildProcessWithoutNullStreams | null = null;
/** the turns the terminal finished: a result comes once its Stop hooks are done */
let results = 0;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-terminal-'));
  workDir = join(root, 'work', 'site');
  mkdirSync(workDir, { recursive: true });
  const claudeDir = join(root, 'claude');
  mkdirSync(join(claudeDir, 'projects'), { recursive: true });
  installHooks(claudeDir, join(root, 'state'));
  kernel = await startTestKernel(join(claudeDir, 'projects'), { stateDir: join(root, 'state') });
  terminal = spawn(process.execPath, [STAND_IN, '--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'], {
    cwd: workDir,
    env: { ...process.env, CLAUDE_CONFIG_DIR: claudeDir },
  });
  results = 0;
  terminal.stdout.on('data', (chunk: Buffer) => {
    results += chunk
      .toString()
      .split('\n')
      .filter((l) => l.startsWith('{"type":"result"')).length;
  });
});
afterEach(async () => {
  terminal?.kill();
  await kernel.close();
  removeHookedDir(root);
});

/** The person types a prompt at the terminal. */
const type = (text: string) =>
  terminal!.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null })}\n`);

const SESSIONS = graphql(`{ sessions { edges { node { id holder live { state } } } } }`);
const SEND = graphql(
  `mutation ($id: ID!, $text: String!, $key: String!) { sendPrompt(sessionId: $id, text: $text, idempotencyKey: $key) { id state reason } }`,
);
const AWAY = graphql(`mutation { setAway(on: true) { on } }`);
const SESSION = graphql(`
  query ($id: ID!) {
    session(id: $id) { turnCount sentPrompts { id text state atomId } }
    transcript(sessionId: $id, limit: 100) { entries { id author { kind via } content { __typename ... on TextBlock { text } } } }
  }
`);

async function terminalSession(): Promise<string> {
  const node = await until(
    async () => (await kernel.gql(SESSIONS)).data.sessions.edges.find((e) => e.node.holder === 'TERMINAL')?.node,
    'the terminal session',
  );
  return node.id;
}
const read = async (id: string) => (await kernel.gql(SESSION, { id })).data;
const texts = async (id: string) =>
  (await read(id)).transcript.entries.flatMap((a) => a.content.flatMap((b) => (b.__typename === 'TextBlock' ? [b.text] : [])));
const idle = async (id: string) => (await kernel.gql(SESSIONS)).data.sessions.edges.find((e) => e.node.id === id)?.node.live.state === 'IDLE';

it("delivers a prompt queued while the terminal works at that turn's end, as a human prompt sent through Loom that opens its own turn", async () => {
  type('[slow:1500] refactor the parser');
  const id = await terminalSession();
  const sent = (await kernel.gql(SEND, { id, text: 'then update the docs', key: 'k1' })).data.sendPrompt;
  expect(sent).toMatchObject({ state: 'QUEUED', reason: expect.stringMatching(/turn to end/) });
  await until(async () => (await read(id)).session?.sentPrompts[0].state === 'DELIVERED', 'the queued prompt to land');
  const data = await read(id);
  const atom = data.transcript.entries.find((a) => a.id === data.session!.sentPrompts[0].atomId)!;
  expect(atom.author).toEqual({ kind: 'HUMAN', via: 'LOOM' });
  expect(atom.content).toEqual([{ __typename: 'TextBlock', text: `Stop hook feedback:\n[loom:${sent.id.split(':')[1]}] then update the docs` }]);
  await until(async () => (await texts(id)).some((t) => t.startsWith('Echo:') && t.endsWith('then update the docs')), 'the model to take it up');
  expect(data.session!.turnCount).toBe(2);
});

it('while away, the Stop hook of a session that went idle waits for a prompt and delivers it at once', async () => {
  await kernel.gql(AWAY);
  type('quick question');
  const id = await terminalSession();
  await until(async () => (await texts(id)).includes('Echo: quick question'), 'the first reply');
  await kernel.gql(SEND, { id, text: 'one more thing', key: 'k2' });
  await until(async () => (await texts(id)).some((t) => t.endsWith('] one more thing') && t.startsWith('Echo:')), 'the reply to the prompt sent while away');
  expect((await read(id)).session!.sentPrompts.map((p) => p.state)).toEqual(['DELIVERED']);
});

it('when not away, a prompt for an idle terminal session says it waits for the next turn end, and is delivered then', async () => {
  type('first');
  const id = await terminalSession();
  await until(async () => results === 1 && (await idle(id)), 'the turn to end and its Stop hook to let it go');
  const sent = (await kernel.gql(SEND, { id, text: 'afterwards', key: 'k3' })).data.sendPrompt;
  expect(sent.reason).toMatch(/idle at its terminal: this is delivered when its next turn ends/);
  expect((await read(id)).session!.sentPrompts[0].state).toBe('QUEUED');
  type('second');
  await until(async () => (await read(id)).session?.sentPrompts[0].state === 'DELIVERED', 'delivery at the next turn end');
  const replies = async () => (await texts(id)).filter((t) => t.startsWith('Echo:'));
  await until(async () => (await replies()).length === 3, 'the reply to the delivered prompt');
  expect(await replies()).toEqual(['Echo: first', 'Echo: second', `Echo: [loom:${sent.id.split(':')[1]}] afterwards`]);
});

it('leaves a session Loom drives to its input: the action hook does nothing where LOOM_DRIVEN is set', async () => {
  type('[slow:1500] working');
  const id = await terminalSession();
  await kernel.gql(SEND, { id, text: 'not through the hook', key: 'k4' });
  const claudeId = id.split(':')[1];
  const hook = spawnSync(process.execPath, [ACTION_HOOK, join(root, 'state'), 'stop'], {
    input: JSON.stringify({ session_id: claudeId, hook_event_name: 'Stop', stop_hook_active: false }),
    env: { ...process.env, LOOM_DRIVEN: '1' },
    encoding: 'utf8',
  });
  expect([hook.status, hook.stdout]).toEqual([0, '']);
  expect((await read(id)).session!.sentPrompts[0].state).toBe('QUEUED');
});

it('drops a queued prompt when its terminal session ends before another turn end, saying to resume', async () => {
  type('hello');
  const id = await terminalSession();
  await until(async () => results === 1 && (await idle(id)), 'the turn to end and its Stop hook to let it go');
  await kernel.gql(SEND, { id, text: 'too late', key: 'k5' });
  // the person quits Claude Code at the terminal: its SessionEnd hook runs
  const ended = spawnSync('sh', [STATE_HOOK, 'SessionEnd', join(root, 'state')], {
    input: JSON.stringify({ session_id: id.split(':')[1], hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }),
  });
  expect(ended.status).toBe(0);
  await until(async () => (await read(id)).session?.sentPrompts[0].state === 'DROPPED', 'the queued prompt to be dropped');
  expect((await read(id)).session!.sentPrompts[0]).toMatchObject({ text: 'too late' });
  const SENT = graphql(`query ($id: ID!) { session(id: $id) { holder sentPrompts { reason } } }`);
  expect((await kernel.gql(SENT, { id })).data.session).toEqual({ holder: 'NONE', sentPrompts: [{ reason: expect.stringMatching(/resume it/) }] });
});
