import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import { FileTail } from '../../spoke/transcripts/tail';
import { everything } from '../helpers/index-snapshot';
import { FIXTURES } from '../helpers/kernel';
import { assistant, line, progress, prompt, say, toolResult, toolUse } from '../helpers/records';

// On a large history the first index lists its first screen from the head of each of the newest
// files before it reads any of them whole (tracker.ts, readHeads). Read so, the index must end the
// same as one that reads each file whole, and a session read to its head only must show no goal
// its head cuts short.

const HOST = 'test';
const NO_HEADS = { after: Infinity, head: 0 };
const sourceOn = (projectsRoot: string, options: Partial<LocalSourceOptions>) =>
  new LocalSource({ projectsRoot, host: HOST, indexWorkers: 0, log: () => {}, ...options });

/** Each FileTail read of the first index: its file and the limit it was asked to stop at. */
function watchReads(): { path: string; limit: number }[] {
  const reads: { path: string; limit: number }[] = [];
  const read = FileTail.prototype.read;
  vi.spyOn(FileTail.prototype, 'read').mockImplementation(function (this: FileTail, ...args) {
    reads.push({ path: this.path, limit: args[1] ?? Infinity });
    return read.apply(this, args);
  });
  return reads;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the first screen read from heads', () => {
  it('builds the same index of every fixture session as reading each file whole', async () => {
    const whole = sourceOn(FIXTURES, { awakeLimit: 2, firstScreenHeads: NO_HEADS });
    await whole.start();
    const reads = watchReads();
    // heads of 2 KB: most fixture files are cut mid-line, mid-turn, before their first prompt
    const fromHeads = sourceOn(FIXTURES, { awakeLimit: 2, firstScreenHeads: { after: 0, head: 2048 } });
    await fromHeads.start();
    vi.restoreAllMocks();
    try {
      expect(reads.filter((r) => r.limit === 2048).length).toBeGreaterThan(20);
      const expected = await everything(whole, HOST);
      expect(expected.length).toBeGreaterThan(20);
      expect(await everything(fromHeads, HOST)).toEqual(expected);
    } finally {
      await whole.stop();
      await fromHeads.stop();
    }
  });

  describe('on a tree whose newest session asks a question its head cuts off from the answer', () => {
    let root: string;
    const project = '-home-dev-heads';
    const fileOf = (key: string) => join(root, project, `${key}.jsonl`);
    const HEAD = 4096;
    // a line long enough that every head ends inside it
    const padding = (uuid: string, parent: string) => ({ ...progress(uuid, parent), data: { type: 'hook_progress', output: 'x'.repeat(HEAD) } });

    beforeAll(() => {
      root = mkdtempSync(join(tmpdir(), 'loom-heads-'));
      mkdirSync(join(root, project));
      const now = Date.now() / 1000;
      for (let i = 0; i < 3; i++) {
        const k = `s${i}`;
        const ask = i === 0 ? [toolUse(`${k}-q`, 'AskUserQuestion', { questions: [{ question: 'Which database?', options: [] }] })] : [say('on it')];
        writeFileSync(
          fileOf(k),
          line(prompt(`${k}-p`, null, `task ${i}`)) +
            line(assistant(`${k}-a`, `${k}-p`, ask, i === 0 ? 'tool_use' : null)) +
            line(padding(`${k}-pad`, `${k}-a`)) +
            (i === 0 ? line(toolResult(`${k}-r`, `${k}-pad`, `${k}-q`, 'Postgres')) : '') +
            line(assistant(`${k}-done`, i === 0 ? `${k}-r` : `${k}-pad`, [say('done')], 'end_turn')),
        );
        utimesSync(fileOf(k), now - i * 60, now - i * 60);
      }
    });
    afterAll(() => {
      rmSync(root, { recursive: true, force: true });
    });

    it('lists and names every session from its head, before any file is read whole, and shows none of their goals until then', async () => {
      const source = sourceOn(root, { firstScreenHeads: { after: 0, head: HEAD } });
      const reads: { path: string; limit: number }[] = [];
      let seenBeforeWhole: { listed: [string, string][]; goals: number; blocked: number } | null = null;
      const read = FileTail.prototype.read;
      vi.spyOn(FileTail.prototype, 'read').mockImplementation(function (this: FileTail, ...args) {
        reads.push({ path: this.path, limit: args[1] ?? Infinity });
        if ((args[1] ?? Infinity) === Infinity && seenBeforeWhole === null) {
          seenBeforeWhole = {
            listed: source
              .sessions({}, 10, null)
              .sessions.map((s): [string, string] => [s.key, s.name])
              .sort(),
            goals: ['s0', 's1', 's2'].reduce((n, key) => n + source.goals(HOST, key).length, 0),
            blocked: source.feed(null, null).blocked.length,
          };
        }
        return read.apply(this, args);
      });
      await source.start();
      vi.restoreAllMocks();
      try {
        // newest first, each to its head: the whole reads come after
        expect(reads.slice(0, 3)).toEqual(['s0', 's1', 's2'].map((k) => ({ path: fileOf(k), limit: HEAD })));
        expect(seenBeforeWhole).toEqual({
          listed: [
            ['s0', 'task 0'],
            ['s1', 'task 1'],
            ['s2', 'task 2'],
          ],
          goals: 0,
          blocked: 0,
        });
        // read whole: the question was answered, and every ask is done
        expect(source.goals(HOST, 's0').map((g) => [g.title, g.status])).toEqual([['task 0', 'COMPLETED']]);
        expect(
          source
            .feed(null, null)
            .completed.map((c) => c.key)
            .sort(),
        ).toEqual(['s0', 's1', 's2']);
        expect(source.session(HOST, 's0')?.atomCount).toBe(4);
        // woken only to be read on, each fell asleep again as the first index read it: none is held awake
        const catalog = (source as unknown as { catalog: { all(): Iterable<{ key: string; sleeping: unknown }> } }).catalog;
        expect([...catalog.all()].filter((s) => !s.sleeping).map((s) => s.key)).toEqual([]);
      } finally {
        await source.stop();
      }
    });

    it('reads a session whole as soon as a reader opens it from its head', async () => {
      const source = sourceOn(root, { firstScreenHeads: { after: 0, head: HEAD } });
      const atomsOf = async (key: string) => (await source.turns(HOST, key)).flatMap((turn) => turn.atoms.map((atom) => atom.uuid));
      let opening: Promise<{ atoms: string[]; goals: number }> | null = null;
      const limitsOfS1: number[] = [];
      const read = FileTail.prototype.read;
      vi.spyOn(FileTail.prototype, 'read').mockImplementation(async function (this: FileTail, ...args) {
        if (this.path === fileOf('s1')) limitsOfS1.push(args[1] ?? Infinity);
        // at the first whole read (s0's), every other file is read to its head only
        if ((args[1] ?? Infinity) === Infinity && opening === null) {
          opening = atomsOf('s1').then((atoms) => ({ atoms, goals: source.goals(HOST, 's1').length }));
          await opening;
        }
        return read.apply(this, args);
      });
      await source.start();
      vi.restoreAllMocks();
      try {
        // opened, it is read to its end at once, and its goals are known
        expect(await opening).toEqual({ atoms: ['s1-p', 's1-a', 's1-done'], goals: 1 });
        expect(source.goals(HOST, 's1').map((g) => g.status)).toEqual(['COMPLETED']);
        // read once: its head, the head again to wake it, then on to its end; never again from the start
        expect(limitsOfS1.filter((limit) => limit !== Infinity && limit > HEAD)).toEqual([]);
      } finally {
        await source.stop();
      }
    });
  });
});
