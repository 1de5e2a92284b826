import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { WORKING_WINDOW_MS } from '../../spoke/goals/sign-of-life';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, lastWritten, line, prompt, say, toolResult, toolUse } from '../helpers/records';
import { until } from '../helpers/wait';

// The working column tells the truth: an ask is working only with a sign of life (a live hook
// state, or a record of its own within 10 minutes of the kernel's clock), and a session is in it
// once at most. Every kernel here reads an injected clock.

const HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-hook.sh');
const MINUTE = 60_000;
const FEED = graphql(`{ feed { working { id status rolledUpStatus outcome updatedAt } completed { id status rolledUpStatus outcome updatedAt } } }`);
const TIMELINE = graphql(
  `query($sessions: [ID!]) { timeline(from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z", sessions: $sessions) { bars { turnId end status } } }`,
);

/**
 * The asks the fixtures' feed listed as working before it needed a sign of life, with their last
 * activity. (A fifth, ae4a77f8's 858a6db7, was only "working" because its parallel tool results
 * were off the path: with them read it completed.)
 */
const LEFT_OPEN = [
  { id: 'test:7acd37a8-2745-4b58-a8a9-46164b22ad9e/d1a5b534-335f-4f10-b472-d3d78362541b', updatedAt: '2025-11-18T00:18:48.614Z', outcome: 'UNFINISHED' },
  { id: 'test:d3ad4cdc-5657-435d-98fa-0035d53e383d/22ee3a31-1a38-4569-9fbd-345d28857dc6', updatedAt: '2025-06-08T11:56:46.820Z', outcome: 'UNFINISHED' },
  // the user interrupted these two, and left their todo lists open: interrupted says more
  { id: 'test:0d3a8e6f-290f-4105-a327-a2496e5e2a83/d96a4288-c3a5-41cd-9c76-399119814735', updatedAt: '2025-07-05T19:50:58.134Z', outcome: 'INTERRUPTED' },
  { id: 'test:0d3a8e6f-290f-4105-a327-a2496e5e2a83/bf83f2a7-6126-4864-8017-85f26bbd0593', updatedAt: '2025-07-05T19:41:08.188Z', outcome: 'INTERRUPTED' },
];

describe('the working column over the real fixtures', () => {
  let kernel: TestKernel;
  let clock = Date.parse('2026-12-01T00:00:00Z');
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES, { awakeLimit: 4, now: () => clock });
  });
  afterAll(() => kernel?.close());

  it('lists nothing as working months after the last record, and shows the asks left open as completed with their last activity', async () => {
    clock = Date.parse('2026-12-01T00:00:00Z');
    const { feed } = (await kernel.gql(FEED)).data;
    expect(feed.working).toEqual([]);
    const completed = new Map(feed.completed.map((g) => [g.id, g]));
    for (const ask of LEFT_OPEN) {
      expect(completed.get(ask.id)).toEqual({ ...ask, status: 'COMPLETED', rolledUpStatus: 'COMPLETED' });
    }
  });

  it('lists a session’s newest open ask as working, once, five minutes after the session’s last record', async () => {
    const [ask] = LEFT_OPEN.filter((a) => a.id.startsWith('test:d3ad4cdc'));
    clock = Date.parse(ask.updatedAt) + 5 * MINUTE;
    const { feed } = (await kernel.gql(FEED)).data;
    expect(feed.working).toEqual([{ id: ask.id, status: 'WORKING', rolledUpStatus: 'WORKING', outcome: null, updatedAt: ask.updatedAt }]);
    // eleven minutes after, it is left open again
    clock = Date.parse(ask.updatedAt) + 11 * MINUTE;
    expect((await kernel.gql(FEED)).data.feed.working).toEqual([]);
  });

  it('keeps in working only the newest of a session’s asks that are open and recent, the older rolled up under it', async () => {
    // bf83f2a7 and d96a4288 were both left open, ten minutes apart: a moment when both are recent
    clock = Date.parse('2025-07-05T19:51:00Z');
    const { feed } = (await kernel.gql(graphql(`{ feed { working { id children { kind id } } completed { id } } }`))).data;
    expect(feed.working.map((g) => g.id)).toEqual([LEFT_OPEN[2].id]);
    expect(feed.working[0].children.filter((c) => c.kind === 'ASK').map((c) => c.id)).toEqual([`${LEFT_OPEN[2].id}/ask-bf83f2a7-6126-4864-8017-85f26bbd0593`]);
    expect(feed.completed.map((g) => g.id)).not.toContain(LEFT_OPEN[3].id);
    const { goal } = (await kernel.gql(graphql(`query($id: ID!) { goal(id: $id) { rolledUpInto { id } } }`), { id: LEFT_OPEN[3].id })).data;
    expect(goal!.rolledUpInto!.id).toBe(LEFT_OPEN[2].id);
  });
});

describe('the working column over written transcripts', () => {
  let root: string;
  let kernel: TestKernel | undefined;
  const file = (name: string) => join(root, '-home-dev-demo', `${name}.jsonl`);
  const todos = (uuid: string, parent: string) =>
    assistant(
      uuid,
      parent,
      [{ type: 'tool_use', id: `t-${uuid}`, name: 'TodoWrite', input: { todos: [{ content: 'write the migration', status: 'pending' }] } }],
      'tool_use',
    );

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'loom-working-'));
    mkdirSync(join(root, '-home-dev-demo'));
  });
  afterEach(async () => {
    await kernel?.close();
    kernel = undefined;
    rmSync(root, { recursive: true, force: true });
  });

  it('shows one card in working for a session with two open asks, the newer, with the older rolled up under it', async () => {
    // the first ask ends its turn with its todo open; the second is still waiting for a tool
    writeFileSync(
      file('two'),
      line(prompt('p1', null, 'plan the migration')) +
        line(todos('a1', 'p1')) +
        line(toolResult('r1', 'a1', 't-a1')) +
        line(assistant('a2', 'r1', [say('planned; shall I go on?')], 'end_turn')) +
        line(prompt('p2', 'a2', 'go on')) +
        line(assistant('a3', 'p2', [toolUse('t-a3')], 'tool_use')),
    );
    kernel = await startTestKernel(root, { now: () => lastWritten() + MINUTE });
    const { feed } = (await kernel.gql(graphql(`{ feed { working { id children { id kind title status } } blocked { id } completed { id } } }`))).data;
    expect(feed.working).toEqual([
      {
        id: 'test:two/p2',
        children: [{ id: 'test:two/p2/ask-p1', kind: 'ASK', title: 'plan the migration', status: 'WORKING' }],
      },
    ]);
    expect([feed.blocked, feed.completed]).toEqual([[], []]);
    const { goal } = (await kernel.gql(graphql(`{ goal(id: "test:two/p1") { rolledUpStatus rolledUpInto { id } } }`))).data;
    expect(goal).toEqual({ rolledUpStatus: 'WORKING', rolledUpInto: { id: 'test:two/p2' } });
    // feedChanged sends the session's goals as the feed has them
    const changes = iterate(kernel.ws(), graphql(`subscription { feedChanged(since: "1970-01-01T00:00:00Z") { goals { id rolledUpStatus outcome } } }`));
    const first = (await changes.next()).value;
    await changes.return?.();
    expect(first!.data!.feedChanged.goals).toEqual([{ id: 'test:two/p2', rolledUpStatus: 'WORKING', outcome: null }]);
  });

  it('settles the older ask as unfinished once it goes quiet, while the newer one is still at work', async () => {
    writeFileSync(
      file('two'),
      line(prompt('p1', null, 'plan the migration')) +
        line(todos('a1', 'p1')) +
        line(toolResult('r1', 'a1', 't-a1')) +
        line(assistant('a2', 'r1', [say('planned; shall I go on?')], 'end_turn')),
    );
    const planned = lastWritten();
    appendFileSync(file('two'), line(prompt('p2', 'a2', 'go on', { timestamp: new Date(planned + 20 * MINUTE).toISOString() })));
    kernel = await startTestKernel(root, { now: () => planned + 21 * MINUTE });
    const { feed } = (await kernel.gql(FEED)).data;
    expect(feed.working.map((g) => g.id)).toEqual(['test:two/p2']);
    expect(feed.completed).toMatchObject([{ id: 'test:two/p1', status: 'COMPLETED', rolledUpStatus: 'COMPLETED', outcome: 'UNFINISHED' }]);
  });

  it('keeps an old ask in working while the hooks say its session is at work', async () => {
    writeFileSync(file('old'), line(prompt('p1', null, 'rebuild the index')) + line(assistant('a1', 'p1', [toolUse('t-a1')], 'tool_use')));
    kernel = await startTestKernel(root, { now: () => lastWritten() + 30 * 24 * 60 * MINUTE });
    const goal = async () => (await kernel!.gql(graphql(`{ goal(id: "test:old/p1") { status rolledUpStatus outcome } }`))).data.goal;
    expect(await goal()).toEqual({ status: 'COMPLETED', rolledUpStatus: 'COMPLETED', outcome: 'UNFINISHED' });
    const input = JSON.stringify({ session_id: 'old', hook_event_name: 'UserPromptSubmit' });
    expect(spawnSync('sh', [HOOK, 'UserPromptSubmit', kernel.stateDir], { input }).status).toBe(0);
    await until(async () => (await goal())?.status === 'WORKING', 'the goal to be working once the hooks say so');
    expect(await goal()).toEqual({ status: 'WORKING', rolledUpStatus: 'WORKING', outcome: null });
    expect((await kernel.gql(FEED)).data.feed.working.map((g) => g.id)).toEqual(['test:old/p1']);
  });

  it('draws a silent turn that never ended as unfinished, ending at its last record, and as running while it is recent', async () => {
    writeFileSync(file('quiet'), line(prompt('p1', null, 'train the model')) + line(assistant('a1', 'p1', [toolUse('t-a1')], 'tool_use')));
    const last = lastWritten();
    let clock = last + 11 * MINUTE;
    kernel = await startTestKernel(root, { now: () => clock });
    const bars = async () => (await kernel!.gql(TIMELINE, { sessions: ['test:quiet'] })).data.timeline[0].bars;
    expect(await bars()).toEqual([{ turnId: 'test:quiet:p1', end: new Date(last).toISOString(), status: 'UNFINISHED' }]);
    clock = last + 5 * MINUTE;
    expect(await bars()).toMatchObject([{ status: 'RUNNING' }]);
  });

  it('announces on feedChanged that an ask left working when its last record grows old, with nothing appended', async () => {
    writeFileSync(file('fading'), line(prompt('p1', null, 'run the benchmarks')) + line(assistant('a1', 'p1', [toolUse('t-a1')], 'tool_use')));
    // a clock that moves: first just after the records, later just short of the window's end
    let offset = lastWritten() - Date.now();
    kernel = await startTestKernel(root, { now: () => Date.now() + offset });
    const seen: { rolledUpStatus: string; outcome: string | null }[] = [];
    const changes = iterate(kernel.ws(), graphql(`subscription { feedChanged(since: "1970-01-01T00:00:00Z") { goals { rolledUpStatus outcome } } }`));
    const consume = (async () => {
      for await (const r of changes) seen.push(r.data!.feedChanged.goals[0]);
    })();
    await until(() => seen.length > 0, 'the catch-up');
    expect(seen).toEqual([{ rolledUpStatus: 'WORKING', outcome: null }]);
    // the tool's result arrives; the clock now stands 2 s before that record stops counting
    offset = lastWritten() + 1000 + WORKING_WINDOW_MS - 2000 - Date.now();
    appendFileSync(file('fading'), line(toolResult('r1', 'a1', 't-a1')));
    await until(() => seen.length >= 3, 'the alarm after the window', 10_000);
    expect(seen).toEqual([
      { rolledUpStatus: 'WORKING', outcome: null },
      { rolledUpStatus: 'WORKING', outcome: null },
      { rolledUpStatus: 'COMPLETED', outcome: 'UNFINISHED' },
    ]);
    await changes.return?.();
    await consume;
  });
});
