import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, lastWritten, line, prompt, say, toolResult } from '../helpers/records';
import { sleep, until } from '../helpers/wait';

const HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-hook.sh');
const GOALS = graphql(`query($id: ID!) { session(id: $id) { goals { id title status rolledUpStatus outcome block { kind text }
  children { kind title status } anchor { uuid } trail { index input { uuid } } } } }`);

describe('goals over the real fixtures', () => {
  let kernel: TestKernel;
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES, { awakeLimit: 2 });
  });
  afterAll(() => kernel.close());

  it('turns each ask into a goal, with its todo list and subagents as parts, asleep or awake', async () => {
    const { data } = await kernel.gql(GOALS, { id: 'test:1af7fc5e-8455-4414-9ccd-011d40f70b2a' });
    const [goal] = data.session!.goals;
    expect(goal.children.length).toBeGreaterThan(0);
    expect(goal.children.every((c) => c.kind === 'TODO' && ['WORKING', 'COMPLETED'].includes(c.status))).toBe(true);
    expect(goal.anchor!.uuid).toBe(goal.id.split('/')[1]);
    const subagents = (await kernel.gql(GOALS, { id: 'test:ef958aa1-0e93-49f0-bb71-150f63befcd1' })).data.session!.goals.flatMap((g) => g.children);
    expect(subagents).toContainEqual({ kind: 'SUBAGENT', title: 'Research Claude Code plan mode', status: 'COMPLETED' });
  });

  it('leaves out of feedChanged the completed goals last updated before completedSince, and nothing else', async () => {
    const { completed } = (await kernel.gql(graphql(`{ feed { completed { id updatedAt session { id } } } }`))).data.feed;
    const cut = completed[2];
    const changes = iterate(
      kernel.ws(),
      graphql(`subscription($cut: DateTime) { feedChanged(since: "1970-01-01T00:00:00Z", completedSince: $cut) { sessionId goals { id rolledUpStatus } } }`),
      { cut: cut.updatedAt },
    );
    // the catch-up sends each session's goals once: read until every session of the feed was sent
    const sessions = new Set(completed.map((g) => g.session!.id));
    const sent = new Map<string, { id: string; rolledUpStatus: string }[]>();
    for await (const { data } of changes) {
      sent.set(data!.feedChanged.sessionId, data!.feedChanged.goals);
      if ([...sessions].every((id) => sent.has(id))) break;
    }
    const goals = [...sent.values()].flat();
    const newest = completed.filter((g) => g.updatedAt >= cut.updatedAt).map((g) => g.id);
    expect(
      goals
        .filter((g) => g.rolledUpStatus === 'COMPLETED')
        .map((g) => g.id)
        .toSorted(),
    ).toEqual(newest.toSorted());
    const { feed } = (await kernel.gql(graphql(`{ feed { blocked { id } } }`))).data;
    expect(
      goals
        .filter((g) => g.rolledUpStatus === 'BLOCKED')
        .map((g) => g.id)
        .toSorted(),
    ).toEqual(feed.blocked.map((g) => g.id).toSorted());
  });

  it('ends the goal of an interrupted turn with outcome INTERRUPTED', async () => {
    const { data } = await kernel.gql(GOALS, { id: 'test:fed8ce56-bc79-401f-a83e-af084253362f' });
    expect(data.session!.goals.map((g) => g.outcome)).toContain('INTERRUPTED');
  });

  it('serves the feed in three columns, newest first, and a goal by id', async () => {
    const { data } = await kernel.gql(graphql(`{ feed { working { id updatedAt } blocked { id } completed { id updatedAt } } }`));
    expect(data.feed.completed.length).toBeGreaterThan(20);
    const times = data.feed.completed.map((g) => Date.parse(g.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const id = data.feed.completed[0].id;
    expect((await kernel.gql(graphql(`query($id: ID!) { goal(id: $id) { id } }`), { id })).data.goal).toEqual({ id });
    const bad = await kernel.gql(graphql(`{ goal(id: "nope") { id } }`));
    expect(bad.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
    const elsewhere = await kernel.gql(graphql(`{ feed(hosts: ["other"]) { completed { id } } }`));
    expect(elsewhere.data.feed.completed).toEqual([]);
  });

  it('keeps only the most recently updated completed goals when asked for the first few, and refuses fewer than none', async () => {
    const all = (await kernel.gql(graphql(`{ feed { working { id } completed { id } } }`))).data.feed;
    const { data } = await kernel.gql(graphql(`{ feed(completedFirst: 3) { working { id } completed { id } } }`));
    expect(data.feed.completed).toEqual(all.completed.slice(0, 3));
    expect(data.feed.working).toEqual(all.working);
    const bad = await kernel.gql(graphql(`{ feed(completedFirst: -1) { completed { id } } }`));
    expect(bad.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('clearing the feed', () => {
  it('announces a clear and an undo on feedChanged, whose goals leave the cleared ones out', async () => {
    const kernel = await startTestKernel(FIXTURES);
    const events: { sessionId: string; ids: string[] }[] = [];
    const iterator = iterate(kernel.ws(), graphql(`subscription { feedChanged { sessionId goals { id } } }`));
    const consume = (async () => {
      for await (const r of iterator) events.push({ sessionId: r.data!.feedChanged.sessionId, ids: r.data!.feedChanged.goals.map((g) => g.id) });
    })();
    const [goal] = (await kernel.gql(graphql(`{ feed { completed { id session { id } } } }`))).data.feed.completed;
    // no acknowledgement exists for a subscription: clear again (one batch: one key) until an event shows it
    let batchId = '';
    await until(async () => {
      batchId = (
        await kernel.gql(graphql(`mutation($ids: [ID!]!, $k: String!) { clearGoals(ids: $ids, idempotencyKey: $k) { batchId } }`), {
          ids: [goal.id],
          k: 'one-click',
        })
      ).data.clearGoals.batchId;
      return events.some((e) => e.sessionId === goal.session!.id && !e.ids.includes(goal.id));
    }, 'a feedChanged without the cleared goal');
    events.length = 0;
    await kernel.gql(graphql(`mutation($b: ID!) { undoClear(batchId: $b) { restored } }`), { b: batchId });
    await until(() => events.some((e) => e.sessionId === goal.session!.id && e.ids.includes(goal.id)), 'a feedChanged with the goal back');
    await iterator.return?.();
    await consume;
    await kernel.close();
  });

  it('clears goals once per idempotency key, undoes a batch, and keeps both across a restart', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'loom-clears-'));
    let kernel = await startTestKernel(FIXTURES, { stateDir });
    const completed = async () => (await kernel.gql(graphql(`{ feed { completed { id } } }`))).data.feed.completed.map((g) => g.id);
    const before = await completed();
    const ids = before.slice(0, 3);
    const clear = graphql(`mutation($ids: [ID!]!, $key: String!) { clearGoals(ids: $ids, idempotencyKey: $key) { batchId cleared } }`);
    const first = (await kernel.gql(clear, { ids, key: 'k1' })).data.clearGoals;
    const again = (await kernel.gql(clear, { ids, key: 'k1' })).data.clearGoals;
    expect(first.cleared).toBe(3);
    expect(again).toEqual(first);
    expect(await completed()).toEqual(before.slice(3));
    await kernel.close();

    kernel = await startTestKernel(FIXTURES, { stateDir });
    expect(await completed()).toEqual(before.slice(3));
    const undo = await kernel.gql(graphql(`mutation($b: ID!) { undoClear(batchId: $b) { restored } }`), { b: first.batchId });
    expect(undo.data.undoClear).toEqual({ restored: 3 });
    expect(await completed()).toEqual(before);
    const missing = await kernel.gql(graphql(`mutation { undoClear(batchId: "nope") { restored } }`));
    expect(missing.errors![0].extensions?.code).toBe('NOT_FOUND');
    await kernel.close();
    rmSync(stateDir, { recursive: true, force: true });
  });
});

describe('blocks', () => {
  let root: string;
  let file: string;
  let kernel: TestKernel;
  const ask = (uuid: string, parent: string, name: string, input: object) => ({
    ...assistant(uuid, parent, [{ type: 'tool_use', id: `t-${uuid}`, name, input }], 'tool_use'),
  });

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-goals-'));
    mkdirSync(join(root, '-home-dev-demo'));
    file = join(root, '-home-dev-demo', 'g1.jsonl');
  });
  afterEach(async () => {
    await kernel.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('blocks on an unanswered question or plan, with its text, until the answer arrives', async () => {
    writeFileSync(
      file,
      line(prompt('p1', null, 'plan the migration')) +
        line(ask('a1', 'p1', 'ExitPlanMode', { plan: '# Plan: move to Postgres 17\n\n1. dump' })) +
        line(toolResult('r1', 'a1', 't-a1')) +
        line(ask('a2', 'r1', 'AskUserQuestion', { questions: [{ question: 'Keep the old replica running?', header: 'Replica' }] })),
    );
    kernel = await startTestKernel(root);
    let goal = (await kernel.gql(GOALS, { id: 'test:g1' })).data.session!.goals[0];
    expect(goal).toMatchObject({ status: 'BLOCKED', rolledUpStatus: 'BLOCKED', block: { kind: 'QUESTION', text: 'Keep the old replica running?' } });
    appendFileSync(file, line(toolResult('r2', 'a2', 't-a2')) + line(assistant('a3', 'r2', [say('done')], 'end_turn')));
    goal = await until(async () => {
      const g = (await kernel.gql(GOALS, { id: 'test:g1' })).data.session!.goals[0];
      return g.status === 'COMPLETED' && g;
    }, 'the answer to complete the goal');
    expect(goal).toMatchObject({ rolledUpStatus: 'COMPLETED', outcome: 'COMPLETED', block: null });
  });

  it('makes tasks from TaskCreate its parts, numbered as their results say, updated by TaskUpdate in any later turn', async () => {
    const created = (uuid: string, parent: string, n: number, subject: string) => {
      const r = toolResult(uuid, parent, `t-${parent}`);
      r.message.content[0].content = `Task #${n} created successfully: ${subject}` as never;
      return r;
    };
    writeFileSync(
      file,
      line(prompt('p1', null, 'migrate the schema')) +
        line(ask('a1', 'p1', 'TaskCreate', { subject: 'Write the migration', description: 'd', activeForm: 'Writing' })) +
        line(created('r1', 'a1', 1, 'Write the migration')) +
        line(ask('a2', 'r1', 'TaskCreate', { subject: 'Run the tests', description: 'd' })) +
        line(created('r2', 'a2', 7, 'Run the tests')) +
        line(ask('a3', 'r2', 'TaskCreate', { subject: 'Tidy up' })) +
        line(toolResult('r3', 'a3', 't-a3')) +
        line(ask('a4', 'r3', 'TaskUpdate', { taskId: '1', status: 'completed' })) +
        line(toolResult('r4', 'a4', 't-a4')) +
        line(ask('a5', 'r4', 'TaskUpdate', { taskId: '8', status: 'deleted' })) +
        line(toolResult('r5', 'a5', 't-a5')) +
        line(assistant('a6', 'r5', [say('first part done')], 'end_turn')),
    );
    // a clock just after the records: an open task keeps the goal working only while it is recent
    kernel = await startTestKernel(root, { now: () => lastWritten() + 60_000 });
    const goals = async () => (await kernel.gql(GOALS, { id: 'test:g1' })).data.session!.goals;
    expect((await goals())[0]).toMatchObject({
      status: 'COMPLETED',
      rolledUpStatus: 'WORKING',
      children: [
        { kind: 'TASK', title: 'Write the migration', status: 'COMPLETED' },
        { kind: 'TASK', title: 'Run the tests', status: 'WORKING' },
      ],
    });
    appendFileSync(
      file,
      line(prompt('p2', 'a6', 'finish it')) +
        line(ask('b1', 'p2', 'TaskUpdate', { taskId: '7', status: 'completed', subject: 'Run every test' })) +
        line(toolResult('s1', 'b1', 't-b1')) +
        line(assistant('b2', 's1', [say('all done')], 'end_turn')),
    );
    const [first, second] = await until(async () => {
      const all = await goals();
      return all.length === 2 && all[1].status === 'COMPLETED' && all;
    }, 'the second turn to complete');
    expect(first.rolledUpStatus).toBe('COMPLETED');
    expect(first.children.map((c) => [c.title, c.status])).toEqual([
      ['Write the migration', 'COMPLETED'],
      ['Run every test', 'COMPLETED'],
    ]);
    expect(second.children).toEqual([]);
  });

  it('follows a permission prompt, its answer and the end of the turn on feedChanged: BLOCKED, WORKING, COMPLETED', async () => {
    // Hook times and transcript times come from the same clock: write these lines at real times.
    const now = <T extends object>(record: T): T => ({ ...record, timestamp: new Date().toISOString() });
    writeFileSync(file, line(now(prompt('p1', null, 'delete the temp files'))) + line(now(ask('a1', 'p1', 'Bash', { command: 'rm -rf tmp' }))));
    kernel = await startTestKernel(root);
    const seen: string[] = [];
    const iterator = iterate(kernel.ws(), graphql(`subscription { feedChanged { sessionId goals { status block { kind text } } } }`));
    const consume = (async () => {
      for await (const r of iterator) seen.push(r.data!.feedChanged.goals[0].status);
    })();
    const hook = (event: string, fields: object = {}) => {
      const input = JSON.stringify({ session_id: 'g1', hook_event_name: event, ...fields });
      expect(spawnSync('sh', [HOOK, event, kernel.stateDir], { input }).status).toBe(0);
    };
    await sleep(1000); // hook times have one-second resolution: the prompt must be older than the notification
    hook('Notification', { message: 'Claude needs your permission to use Bash', notification_type: 'permission_prompt' });
    await until(() => seen.includes('BLOCKED'), 'BLOCKED on feedChanged');
    const blocked = (await kernel.gql(graphql(`{ feed { blocked { title block { kind text } } } }`))).data.feed.blocked;
    expect(blocked).toEqual([{ title: 'delete the temp files', block: { kind: 'PERMISSION', text: 'Claude needs your permission to use Bash' } }]);
    await sleep(1100);
    appendFileSync(file, line(now(toolResult('r1', 'a1', 't-a1'))));
    await until(() => seen[seen.length - 1] === 'WORKING', 'WORKING once answered');
    appendFileSync(file, line(now(assistant('a2', 'r1', [say('deleted')], 'end_turn'))));
    hook('Stop');
    await until(() => seen[seen.length - 1] === 'COMPLETED', 'COMPLETED after Stop');
    await iterator.return?.();
    await consume;
  });
});
