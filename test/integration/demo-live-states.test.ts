import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoHookStates, type DemoTree, startLiveAppends, writeDemoTree } from '../../demo';
import { graphql } from '../../web/src/lib/graphql';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { until } from '../helpers/wait';

// `loom up --demo` writes the hook states its sessions would have, so the tabs' chips work there.

const SEND = graphql(
  `mutation DemoSend($id: ID!, $text: String!, $key: String!) { sendPrompt(sessionId: $id, text: $text, idempotencyKey: $key) { id state } }`,
);
const SENT = graphql(`
  query DemoSent($id: ID!) {
    session(id: $id) { sentPrompts { state } }
    transcript(sessionId: $id, limit: 20) { entries { author { via } content { ... on TextBlock { text } } } }
  }
`);
const LIVE = graphql(`query DemoLive { sessions(first: 50) { nodes { id live { state } } } }`);

describe('the demo', () => {
  let dir: string;
  let tree: DemoTree;
  let hookStates: DemoHookStates;
  let kernel: TestKernel;
  const stateOf = async () => new Map((await kernel.gql(LIVE)).data.sessions.nodes.map((s) => [s.id.replace(/^test:/, ''), s.live.state]));
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loom-demo-states-'));
    tree = await writeDemoTree(join(dir, 'projects'));
    hookStates = new DemoHookStates(join(dir, 'state'));
    await hookStates.writeTree(tree, Date.now());
    kernel = await startTestKernel(join(dir, 'projects'), { stateDir: join(dir, 'state') });
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives every session a live state: the question waits on you, live ones idle, the rest closed', async () => {
    const states = await stateOf();
    for (const session of tree.sessions) {
      const expected = session.awaitsAnswer ? 'PERMISSION' : session.live ? 'IDLE' : 'CLOSED';
      expect(states.get(session.sessionId), session.sessionId).toBe(expected);
    }
  });

  it('turns a live session to working when it writes a prompt, and idle again at its turn end', async () => {
    const live = tree.sessions.filter((s) => s.live).map((s) => s.sessionId);
    const seen = new Map(live.map((id) => [id, [] as string[]]));
    const appends = startLiveAppends(tree, { intervalMs: 20, hookStates });
    try {
      await until(
        async () => {
          const states = await stateOf();
          for (const [id, log] of seen) if (log.at(-1) !== states.get(id)) log.push(`${states.get(id)}`);
          return [...seen.values()].some((log) => log.join(' ').includes('IDLE WORKING IDLE'));
        },
        'a live session through a turn',
        15_000,
      );
    } finally {
      await appends.stop();
    }
  });

  it('answers a prompt sent from the dashboard at a turn end, through the Stop hook as a terminal session does', async () => {
    const id = `test:${tree.sessions.find((s) => s.live)!.sessionId}`;
    const { data } = await kernel.gql(SEND, { id, text: 'add a health check\nand test it', key: 'demo-1' });
    expect(data.sendPrompt.state).toBe('QUEUED');
    const appends = startLiveAppends(tree, {
      intervalMs: 20,
      hookStates,
      stopHook: (input) => kernel.driving.stopHookAsks(input, AbortSignal.timeout(1_000)),
    });
    try {
      const session = await until(
        async () => {
          const { data } = await kernel.gql(SENT, { id });
          return data.session?.sentPrompts[0]?.state === 'DELIVERED' && data;
        },
        'the sent prompt delivered',
        15_000,
      );
      const turn = session.transcript.entries.filter((e) => e.author?.via === 'LOOM');
      expect(turn).toHaveLength(1);
      await until(
        async () => JSON.stringify((await kernel.gql(SENT, { id })).data.transcript.entries).includes('You asked: “add a health check”'),
        'the demo session answers it',
        15_000,
      );
    } finally {
      await appends.stop();
    }
  });

  it('removes the state files it wrote, and only those', async () => {
    writeFileSync(join(dir, 'state', 'states', 'a-real-session.jsonl'), '');
    await hookStates.remove(tree);
    expect(readdirSync(join(dir, 'state', 'states'))).toEqual(['a-real-session.jsonl']);
  });
});
