import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { graphql, type ResultOf } from '../../web/src/lib/graphql';
import { iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { sleep, until } from '../helpers/wait';

// Restarting a kernel on the same state dir: the index cache brings back what was read, and
// only files that changed are read again.

let root: string;
let stateDir: string;
let kernel: TestKernel | null = null;

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-restart-'));
  stateDir = mkdtempSync(join(tmpdir(), 'loom-restart-state-'));
  mkdirSync(join(root, '-home-dev-demo'));
  for (const name of ['one', 'two', 'three']) {
    writeFileSync(
      join(root, '-home-dev-demo', `${name}.jsonl`),
      line(prompt(`${name}-p`, null, `task ${name}`)) + line(assistant(`${name}-a`, `${name}-p`, [say(`done ${name}`)], 'end_turn')),
    );
  }
});
afterEach(async () => {
  await kernel?.close();
  kernel = null;
  rmSync(root, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
});

const SESSIONS = graphql(`{ kernel { indexing { filesDone filesFromCache done } }
  sessions { nodes { key name atomCount turnCount turns { atoms { uuid sequence content { ... on TextBlock { text } } } } } } }`);

describe('restarting on the same state dir', () => {
  it('takes unchanged files from the index cache and reads only the file that grew', async () => {
    kernel = await startTestKernel(root, { stateDir, awakeLimit: 1 });
    const before = (await kernel.gql(SESSIONS)).data;
    expect(before.kernel.indexing.filesFromCache).toBe(0);
    await kernel.close();
    kernel = null;

    appendFileSync(join(root, '-home-dev-demo', 'two.jsonl'), line(prompt('two-p2', 'two-a', 'and one more thing')));
    kernel = await startTestKernel(root, { stateDir, awakeLimit: 1 });
    const after = (await kernel.gql(SESSIONS)).data;
    expect(after.kernel.indexing).toEqual({ filesDone: 3, filesFromCache: 2, done: true });
    const byKey = (data: ResultOf<typeof SESSIONS>) => Object.fromEntries(data.sessions.nodes.map((s) => [s.key, s]));
    expect(byKey(after).one).toEqual(byKey(before).one);
    expect(byKey(after).three).toEqual(byKey(before).three);
    expect(byKey(after).two.turns.flatMap((t) => t.atoms.map((a) => [a.uuid, a.sequence]))).toEqual([
      ['two-p', 1],
      ['two-a', 2],
      ['two-p2', 3],
    ]);
    expect(byKey(after).two).toMatchObject({ name: 'task two', atomCount: 3, turnCount: 2 });
  });

  it("announces a restored session's change without announcing its unchanged subagents", async () => {
    mkdirSync(join(root, '-home-dev-demo', 'one', 'subagents'), { recursive: true });
    for (const agent of ['a0', 'a1']) {
      writeFileSync(
        join(root, '-home-dev-demo', 'one', 'subagents', `agent-${agent}.jsonl`),
        line(prompt(`${agent}-p`, null, `sub ${agent}`, { isSidechain: true, sessionId: 'one' })),
      );
    }
    kernel = await startTestKernel(root, { stateDir });
    await kernel.close();
    kernel = await startTestKernel(root, { stateDir });
    const changes: string[] = [];
    const iterator = iterate(kernel.ws(), graphql(`subscription { sessionsChanged { sessionId } }`));
    const consume = (async () => {
      for await (const r of iterator) changes.push(r.data!.sessionsChanged.sessionId);
    })();
    // no acknowledgement exists for a subscription: grow the session until its change is heard
    let n = 0;
    await until(() => {
      appendFileSync(join(root, '-home-dev-demo', 'one.jsonl'), line(prompt(`one-more-${++n}`, n === 1 ? 'one-a' : `one-more-${n - 1}`, 'more')));
      return changes.includes('test:one');
    }, 'the change of one');
    await sleep(300);
    expect(changes.filter((id) => id.startsWith('test:agent-'))).toEqual([]);
    await iterator.return?.();
    await consume;
  });

  it('moves an unreadable index cache aside, says so, and indexes from the transcripts', async () => {
    writeFileSync(join(stateDir, 'index-cache.json'), '{"format": 1, "truncat');
    kernel = await startTestKernel(root, { stateDir });
    const { data } = await kernel.gql(SESSIONS);
    expect(data.sessions.nodes).toHaveLength(3);
    expect(kernel.logs.some((l) => /index cache .* could not be read; moved it to .*corrupt/.test(l))).toBe(true);
    expect(readdirSync(stateDir).some((f) => f.startsWith('index-cache.json.corrupt-'))).toBe(true);
  });

  it('forgets a session whose file was deleted while the kernel was stopped', async () => {
    kernel = await startTestKernel(root, { stateDir });
    await kernel.close();
    kernel = null;
    rmSync(join(root, '-home-dev-demo', 'one.jsonl'));
    kernel = await startTestKernel(root, { stateDir });
    const { data } = await kernel.gql(SESSIONS);
    expect(data.sessions.nodes.map((s) => s.key).sort()).toEqual(['three', 'two']);
    expect(existsSync(join(stateDir, 'index-cache.json'))).toBe(true);
  });

  it('removes the temp files a killed writer left in the state dir, and keeps a live process’s', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    const left = ['cleared-goals.json', 'index-cache.json', 'token'].map((name) => `${name}.${dead}.tmp`);
    const live = `hosts.json.${process.pid}.tmp`;
    for (const name of [...left, live]) writeFileSync(join(stateDir, name), '{"half": ');
    kernel = await startTestKernel(root, { stateDir });
    const after = readdirSync(stateDir);
    for (const name of left) expect(after, name).not.toContain(name);
    expect(after).toContain(live);
  });
});
