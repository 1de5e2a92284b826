import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphql, type ResultOf } from '../../web/src/lib/graphql';
import { iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { until } from '../helpers/wait';

// Claude Code's hook events, through the real hook script, into a running kernel.

// What `loom hooks install` puts in settings.json: the shell hook, run directly.
const HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-hook.sh');
let root: string;
let kernel: TestKernel;

beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-livestate-'));
  mkdirSync(join(root, '-home-dev-demo'));
  writeFileSync(join(root, '-home-dev-demo', 's1.jsonl'), line(prompt('p1', null, 'deploy it')) + line(assistant('a1', 'p1', [say('on it')], 'end_turn')));
  writeFileSync(join(root, '-home-dev-demo', 'quiet.jsonl'), line(prompt('q1', null, 'no hooks here')));
  kernel = await startTestKernel(root);
});
afterEach(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

function hook(event: string, fields: object = {}): void {
  const input = JSON.stringify({
    session_id: 's1',
    transcript_path: join(root, '-home-dev-demo', 's1.jsonl'),
    cwd: '/home/dev/demo',
    hook_event_name: event,
    ...fields,
  });
  const result = spawnSync('sh', [HOOK, event, kernel.stateDir], { input, encoding: 'utf8' });
  expect(result.status).toBe(0);
}

const LIVE = graphql(`query($id: ID!) { session(id: $id) { live { state since detail } } }`);
const liveOf = async (key: string) => (await kernel.gql(LIVE, { id: `test:${key}` })).data.session!.live;

describe('live state from hooks', () => {
  it('follows a session from working to needing permission to idle, live over sessionsChanged', async () => {
    expect(await liveOf('quiet')).toEqual({ state: 'UNKNOWN', since: null, detail: null });
    const seen: string[] = [];
    const iterator = iterate(kernel.ws(), graphql(`subscription { sessionsChanged { sessionId session { live { state } } } }`));
    const consume = (async () => {
      for await (const r of iterator) if (r.data) seen.push(r.data.sessionsChanged.session!.live.state);
    })();
    // No acknowledgement exists for a subscription: sessions are written until one is announced,
    // so that what the hooks do next is heard (a loaded machine once subscribed after PERMISSION).
    let n = 0;
    await until(() => {
      writeFileSync(join(root, '-home-dev-demo', `heard${++n}.jsonl`), line(prompt(`h${n}`, null, 'are you listening')));
      return seen.length > 0;
    }, 'a first change on sessionsChanged');
    hook('UserPromptSubmit');
    await until(async () => (await liveOf('s1')).state === 'WORKING', 'WORKING');
    hook('Notification', { message: 'Claude needs your permission to use Bash', notification_type: 'permission_prompt' });
    const blocked = await until(async () => {
      const live = await liveOf('s1');
      return live.state === 'PERMISSION' && live;
    }, 'PERMISSION');
    expect(blocked.detail).toBe('Claude needs your permission to use Bash');
    hook('Stop');
    await until(async () => (await liveOf('s1')).state === 'IDLE', 'IDLE');
    await until(() => seen.includes('IDLE'), 'IDLE on sessionsChanged');
    expect(seen).toContain('PERMISSION');
    await iterator.return?.();
    await consume;
  });

  it('puts an idle span in the turn a harness notice revived, as an IDLE atom from the Stop to the notice', async () => {
    const at =
      (iso: string) =>
      <T extends object>(record: T): T => ({ ...record, timestamp: iso });
    writeFileSync(
      join(root, '-home-dev-demo', 'bg.jsonl'),
      line(at('2026-05-01T10:00:00.100Z')(prompt('p1', null, 'run the suite in the background'))) +
        line(at('2026-05-01T10:00:02.200Z')(assistant('a1', 'p1', [say('started; I will report back')], 'end_turn'))) +
        line(at('2026-05-01T10:05:00.000Z')(prompt('n1', 'a1', '<task-notification>\n<status>completed</status></task-notification>'))) +
        line(at('2026-05-01T10:05:03.000Z')(assistant('a2', 'n1', [say('all 212 tests passed')], 'end_turn'))),
    );
    // What the hook wrote when Claude Code stopped after a1 (hook times are whole seconds).
    writeFileSync(
      join(kernel.stateDir, 'states', 'bg.jsonl'),
      `${JSON.stringify({ t: '2026-05-01T10:00:02Z', event: 'Stop', loom_session: null, input: { session_id: 'bg', hook_event_name: 'Stop' } })}\n`,
    );
    const turns = await until(async () => {
      const { data } = await kernel.gql(graphql(`{ session(id: "test:bg") { turns { trigger { uuid } ended atoms { uuid type t end } } } }`));
      return data.session?.turns.some((t) => t.atoms.some((a) => a.type === 'IDLE')) && data.session.turns;
    }, 'the idle atom');
    expect(turns).toHaveLength(1);
    expect(turns[0].atoms.map((a) => a.type)).toEqual(['USER', 'ASSISTANT', 'IDLE', 'USER', 'ASSISTANT']);
    expect(turns[0].atoms[2]).toMatchObject({ t: '2026-05-01T10:00:02.200Z', end: '2026-05-01T10:05:00.000Z' });
    // The path, pages and streams stay the transcript's own lines.
    const page = (await kernel.gql(graphql(`{ transcript(sessionId: "test:bg") { entries { uuid } maxSequence } }`))).data.transcript;
    expect(page.maxSequence).toBe(4);
  });

  it('ends a stream with a STOPPED frame once the session is closed and nothing is left', async () => {
    const STREAM = graphql(`subscription { sessionStream(sessionId: "test:s1") { kind cursor atoms { sequence } } }`);
    const frames: ResultOf<typeof STREAM>['sessionStream'][] = [];
    const iterator = iterate(kernel.ws(), STREAM);
    const consume = (async () => {
      for await (const r of iterator) frames.push(r.data!.sessionStream);
    })();
    await until(() => frames.length > 0, 'the snapshot');
    hook('SessionEnd', { reason: 'exit' });
    await consume; // the stream completes on its own
    expect(frames.map((f) => f.kind)).toEqual(['SNAPSHOT', 'STOPPED']);
    expect(frames[1]).toEqual({ kind: 'STOPPED', cursor: 2, atoms: [] });
    expect(await liveOf('s1')).toMatchObject({ state: 'CLOSED', detail: 'exit' });
  });
});
