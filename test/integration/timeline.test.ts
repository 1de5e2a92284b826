import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, toolResult, toolUse } from '../helpers/records';
import { until } from '../helpers/wait';

// timeline(from, to, lanes): a lane per session over a window, through a real kernel.

const TIMELINE = graphql(`query($from: String!, $to: String!, $lanes: Int, $sessions: [ID!]) {
  timeline(from: $from, to: $to, lanes: $lanes, sessions: $sessions) {
    session { id name startedAt updatedAt host { name } }
    bars { turnId turnIndex segmentIndex t end status triggerText inputText }
    idle { t end }
    triggers { turnId t text }
    stripes { kind t end }
  } }`);

const EVER = { from: '2000-01-01T00:00:00Z', to: '2100-01-01T00:00:00Z' };

describe('the timeline over the fixtures', () => {
  let kernel: TestKernel;
  let sessions: { id: string; startedAt: string; updatedAt: string }[];
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES, { awakeLimit: 4 });
    sessions = (await kernel.gql(graphql(`{ sessions(first: 500) { nodes { id startedAt updatedAt } } }`))).data.sessions.nodes;
  });
  afterAll(() => kernel?.close());

  it('gives every session active in the window a lane, most recently active first, 20 by default', async () => {
    const all = (await kernel.gql(TIMELINE, { ...EVER, lanes: 100 })).data.timeline;
    expect(all.map((l) => l.session.id)).toEqual(sessions.map((s) => s.id));
    const byDefault = (await kernel.gql(TIMELINE, EVER)).data.timeline;
    expect(byDefault.map((l) => l.session.id)).toEqual(sessions.slice(0, 20).map((s) => s.id));
    expect(sessions.length).toBeGreaterThan(20);
  });

  it('keeps only sessions, bars and dots that meet a narrow window', async () => {
    const newest = sessions[0];
    const to = new Date(Date.parse(newest.updatedAt) - 60_000).toISOString();
    const from = new Date(Date.parse(to) - 6 * 3600_000).toISOString();
    const lanes = (await kernel.gql(TIMELINE, { from, to, lanes: 100 })).data.timeline;
    const expected = sessions.filter((s) => s.startedAt <= to && s.updatedAt >= from).map((s) => s.id);
    expect(lanes.map((l) => l.session.id)).toEqual(expected);
    expect(lanes.length).toBeGreaterThan(0);
    for (const lane of lanes) {
      for (const bar of lane.bars) expect(bar.t <= to && bar.end >= from, JSON.stringify(bar)).toBe(true);
      for (const dot of lane.triggers) expect(dot.t >= from && dot.t <= to).toBe(true);
    }
  });

  it('draws a bar per segment of each turn, with the turn id, the trigger and the input', async () => {
    const id = 'test:29ccd257-68b1-427f-ae5f-6524b7cb6f20';
    const [lane] = (await kernel.gql(TIMELINE, { ...EVER, sessions: [id] })).data.timeline;
    const { turns } = (
      await kernel.gql(
        graphql(`query($id: ID!) { session(id: $id) { turns { id index t trigger { t promptLine }
      segments { index t end input { promptLine } } } } }`),
        { id },
      )
    ).data.session!;
    const segments = turns.flatMap((turn) =>
      turn.segments.map((s) => ({
        turnId: turn.id,
        turnIndex: turn.index,
        segmentIndex: s.index,
        t: s.t,
        end: s.end,
        status: 'ENDED',
        triggerText: turn.trigger?.promptLine ?? null,
        inputText: s.input?.promptLine ?? null,
      })),
    );
    expect(lane.session.id).toBe(id);
    expect(lane.bars).toEqual(segments);
    expect(lane.triggers).toEqual(turns.map((turn) => ({ turnId: turn.id, t: turn.trigger!.t, text: turn.trigger!.promptLine })));
    expect(lane.stripes).toEqual([]);
  });

  it('marks the bar of a turn the user interrupted', async () => {
    const [lane] = (await kernel.gql(TIMELINE, { ...EVER, sessions: ['test:fed8ce56-bc79-401f-a83e-af084253362f'] })).data.timeline;
    expect(lane.bars.map((b) => b.status)).toContain('INTERRUPTED');
  });

  it('refuses arguments it cannot serve, saying what is wrong', async () => {
    const refusal = async (variables: object) => {
      const { errors } = await kernel.gql(TIMELINE, { ...EVER, ...variables });
      expect(errors![0].extensions?.code).toBe('BAD_USER_INPUT');
      return errors![0].message;
    };
    expect(await refusal({ from: 'yesterday' })).toBe('"from" must be an RFC 3339 time such as 2026-01-31T09:00:00Z, got "yesterday"');
    expect(await refusal({ from: '2026-01-02T00:00:00Z', to: '2026-01-01T00:00:00Z' })).toBe(
      '"to" must be after "from", got from 2026-01-02T00:00:00.000Z to 2026-01-01T00:00:00.000Z',
    );
    expect(await refusal({ lanes: 0 })).toBe('"lanes" must be a whole number from 1 to 100, got 0');
    expect(await refusal({ lanes: 101 })).toBe('"lanes" must be a whole number from 1 to 100, got 101');
    expect(await refusal({ sessions: ['nope'] })).toBe('"nope" is not a session id; session ids look like "host:sessionKey"');
  });
});

describe('idle spans and live stripes', () => {
  let root: string;
  let kernel: TestKernel;
  const at =
    (iso: string) =>
    <T extends object>(record: T): T => ({ ...record, timestamp: `2026-05-01T${iso}Z` });
  const hookLine = (session: string, t: string, event: string, input: object = {}) =>
    `${JSON.stringify({ t: `2026-05-01T${t}Z`, event, loom_session: null, input: { session_id: session, hook_event_name: event, ...input } })}\n`;
  const permission = { message: 'Claude needs your permission to use Bash', notification_type: 'permission_prompt' };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-timeline-'));
    mkdirSync(join(root, '-home-dev-demo'));
    kernel = await startTestKernel(root);
    // A turn that stopped, then went on when a background task reported (an idle span), and asked
    // for a permission on the way (granted: the tool's result came 14 s later).
    writeFileSync(
      join(root, '-home-dev-demo', 'bg.jsonl'),
      line(at('10:00:00.100')(prompt('p1', null, 'run the suite in the background\nthen report'))) +
        line(at('10:00:02.200')(assistant('a1', 'p1', [say('started; I will report back')], 'end_turn'))) +
        line(at('10:05:00.000')(prompt('n1', 'a1', '<task-notification>\n<status>completed</status></task-notification>'))) +
        line(at('10:05:03.000')(assistant('a2', 'n1', [toolUse('t1')], 'tool_use'))) +
        line(at('10:05:20.000')(toolResult('r1', 'a2', 't1'))) +
        line(at('10:05:21.000')(assistant('a3', 'r1', [say('all 212 tests passed')], 'end_turn'))),
    );
    // Still waiting for a permission, after compacting once.
    writeFileSync(
      join(root, '-home-dev-demo', 'ask.jsonl'),
      line(at('11:00:00.000')(prompt('q1', null, 'clean the build'))) + line(at('11:00:02.000')(assistant('b1', 'q1', [toolUse('t2')], 'tool_use'))),
    );
    writeFileSync(
      join(kernel.stateDir, 'states', 'bg.jsonl'),
      hookLine('bg', '10:00:00', 'UserPromptSubmit') +
        hookLine('bg', '10:00:02', 'Stop') +
        hookLine('bg', '10:05:05', 'Notification', permission) +
        hookLine('bg', '10:05:22', 'Stop'),
    );
    writeFileSync(
      join(kernel.stateDir, 'states', 'ask.jsonl'),
      hookLine('ask', '10:59:00', 'PreCompact', { trigger: 'manual' }) +
        hookLine('ask', '10:59:30', 'UserPromptSubmit') +
        hookLine('ask', '11:00:03', 'Notification', permission) +
        hookLine('ask', '11:00:40', 'Notification', permission),
    );
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(root, { recursive: true, force: true });
  });

  const window = { from: '2026-05-01T09:00:00Z', to: '2026-05-01T12:00:00Z' };
  const laneOf = async (key: string) => (await kernel.gql(TIMELINE, { ...window, sessions: [`test:${key}`] })).data.timeline[0];

  it('draws the idle span inside the turn the harness notice revived', async () => {
    const lane = await until(async () => {
      const lane = await laneOf('bg');
      return lane?.idle.length > 0 && lane;
    }, 'the idle span');
    expect(lane.idle).toEqual([{ t: '2026-05-01T10:00:02.200Z', end: '2026-05-01T10:05:00.000Z' }]);
    // the notice is the harness's, not an input: the turn stays one segment, the idle span inside it
    expect(lane.bars).toEqual([
      {
        turnId: 'test:bg:p1',
        turnIndex: 0,
        segmentIndex: 0,
        t: '2026-05-01T10:00:00.100Z',
        end: '2026-05-01T10:05:21.000Z',
        status: 'ENDED',
        triggerText: 'run the suite in the background',
        inputText: 'run the suite in the background',
      },
    ]);
    expect(lane.triggers).toEqual([{ turnId: 'test:bg:p1', t: '2026-05-01T10:00:00.100Z', text: 'run the suite in the background' }]);
  });

  it('draws a permission stripe until the transcript moved on, and one still open', async () => {
    const bg = await until(async () => (await laneOf('bg'))?.stripes, 'the bg lane');
    expect(bg).toEqual([{ kind: 'PERMISSION', t: '2026-05-01T10:05:05.000Z', end: '2026-05-01T10:05:20.000Z' }]);
    const ask = await until(() => laneOf('ask'), 'the ask lane');
    expect(ask.stripes).toEqual([
      { kind: 'COMPACTING', t: '2026-05-01T10:59:00.000Z', end: '2026-05-01T10:59:30.000Z' },
      { kind: 'PERMISSION', t: '2026-05-01T11:00:03.000Z', end: null },
    ]);
    expect(ask.bars).toMatchObject([{ status: 'RUNNING', triggerText: 'clean the build' }]);
  });
});
