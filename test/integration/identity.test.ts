import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { until } from '../helpers/wait';

// `loom run` and the hooks keep a resumed Claude Code session one session in Loom.

const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');
const HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-hook.sh');
const run = promisify(execFile);
let root: string;
let project: string;
let fake: string;
let kernel: TestKernel | null = null;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-identity-'));
  project = join(root, 'projects', '-home-dev-demo');
  mkdirSync(project, { recursive: true });
  // Stands in for Claude Code: `fake-claude <session id> [--resume ID]` runs the SessionStart hook.
  fake = join(root, 'fake-claude.sh');
  writeFileSync(fake, `printf '{"session_id":"%s","hook_event_name":"SessionStart","source":"startup"}' "$1" | sh ${HOOK} SessionStart "$STATE"\n`);
});
afterEach(async () => {
  await kernel?.close();
  kernel = null;
  rmSync(root, { recursive: true, force: true });
});

const at =
  (iso: string) =>
  <T extends object>(record: T): T => ({ ...record, timestamp: iso });

describe('loom run', () => {
  it('keeps a resumed session as one session with both files, its history in order, and one feed', async () => {
    const state = mkdtempSync(join(tmpdir(), 'loom-identity-state-'));
    kernel = await startTestKernel(join(root, 'projects'), { stateDir: state });
    const env = { ...process.env, STATE: state };
    await run(process.execPath, [LOOM, 'run', '--state', state, '--', 'sh', fake, 'first'], { env });
    const identity = JSON.parse(readFileSync(join(state, 'states', 'first.jsonl'), 'utf8')).loom_session;
    expect(identity).toMatch(/^[0-9a-f-]{36}$/);
    writeFileSync(
      join(project, 'first.jsonl'),
      line(at('2026-03-01T10:00:00Z')(prompt('p1', null, 'start the port'))) +
        line(at('2026-03-01T10:01:00Z')(assistant('a1', 'p1', [say('started')], 'end_turn'))),
    );
    await until(
      async () => (await kernel!.gql(graphql(`query($id: ID!) { session(id: $id) { atomCount } }`), { id: `test:${identity}` })).data.session?.atomCount === 2,
      'the first file under the Loom session',
    );

    // Resumed later: Claude Code writes a new file whose chain starts fresh.
    await run(process.execPath, [LOOM, 'run', '--state', state, '--', 'sh', fake, 'second', '--resume', 'first'], { env });
    expect(JSON.parse(readFileSync(join(state, 'states', 'second.jsonl'), 'utf8')).loom_session).toBe(identity);
    writeFileSync(
      join(project, 'second.jsonl'),
      line(at('2026-03-02T09:00:00Z')(prompt('p2', null, 'finish the port'))) +
        line(at('2026-03-02T09:05:00Z')(assistant('a2', 'p2', [say('finished')], 'end_turn'))),
    );

    const session = await until(async () => {
      const { data } = await kernel!.gql(
        graphql(`query($id: ID!) { session(id: $id) { epoch files { fsid } turns { atoms { uuid sequence } } goals { title } } }`),
        {
          id: `test:${identity}`,
        },
      );
      // the file joins when it appears, empty; its lines follow with the next read
      const atoms = data.session?.turns.flatMap((t) => t.atoms) ?? [];
      return data.session?.files.length === 2 && atoms.length === 4 && data.session;
    }, 'the resumed file to join, with its lines');
    expect(session.files.map((f) => f.fsid).sort()).toEqual(['first', 'second']);
    expect(session.epoch).toBe(1);
    expect(session.turns.flatMap((t) => t.atoms.map((a) => [a.uuid, a.sequence]))).toEqual([
      ['p1', 1],
      ['a1', 2],
      ['p2', 3],
      ['a2', 4],
    ]);
    expect(session.goals.map((g) => g.title)).toEqual(['start the port', 'finish the port']);
    const { data } = await kernel.gql(graphql(`{ sessions { nodes { key } } }`));
    expect(data.sessions.nodes.map((s) => s.key)).toEqual([identity]);

    // A restart finds the same one session.
    await kernel.close();
    kernel = await startTestKernel(join(root, 'projects'), { stateDir: state });
    const again = (await kernel.gql(graphql(`{ sessions { nodes { key files { fsid } } } }`))).data.sessions.nodes;
    expect(again).toHaveLength(1);
    expect(again[0].key).toBe(identity);
    rmSync(state, { recursive: true, force: true });
  });

  it('re-reads a file indexed before its hooks said which Loom session it belongs to', async () => {
    const state = mkdtempSync(join(tmpdir(), 'loom-identity-state-'));
    writeFileSync(join(project, 'early.jsonl'), line(prompt('e1', null, 'an early start')));
    kernel = await startTestKernel(join(root, 'projects'), { stateDir: state });
    expect((await kernel.gql(graphql(`{ sessions { nodes { key } } }`))).data.sessions.nodes).toEqual([{ key: 'early' }]);
    await run(process.execPath, [LOOM, 'run', '--state', state, '--', 'sh', fake, 'early'], { env: { ...process.env, STATE: state } });
    const identity = JSON.parse(readFileSync(join(state, 'states', 'early.jsonl'), 'utf8')).loom_session;
    await until(async () => {
      const nodes = (await kernel!.gql(graphql(`{ sessions { nodes { key atomCount } } }`))).data.sessions.nodes;
      return nodes.length === 1 && nodes[0].key === identity && nodes[0].atomCount === 1;
    }, 'the file under its Loom session');
    rmSync(state, { recursive: true, force: true });
  });
});
