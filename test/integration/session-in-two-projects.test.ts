import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import { writeConversation } from '../helpers/transcript-tree';

// One session key with a file in two projects (a copied or moved transcript): neither project is
// given to a worker (its catalog would hold half the session), and the second file's lines wake
// the session if it fell asleep between the two, so the index holds both files' lines whichever
// threads read them.

const HOST = 'test';
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-review-key2-'));
  const newer = join(root, '-home-dev-newer');
  const middle = join(root, '-home-dev-middle');
  const older = join(root, '-home-dev-older');
  for (const dir of [newer, middle, older]) mkdirSync(dir);
  const files = [join(newer, 'shared.jsonl'), join(middle, 'm1.jsonl'), join(middle, 'm2.jsonl'), join(older, 'shared.jsonl')];
  writeConversation(files[0], 'shared', 3, { prefix: 'new' });
  writeConversation(files[1], 'm1', 2, { prefix: 'm1' });
  writeConversation(files[2], 'm2', 2, { prefix: 'm2' });
  writeConversation(files[3], 'shared', 2, { prefix: 'old' });
  const now = Date.now() / 1000;
  for (const [i, path] of files.entries()) utimesSync(path, now - 3600 - i * 60, now - 3600 - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const source = (options: Partial<LocalSourceOptions>) => new LocalSource({ projectsRoot: root, host: HOST, indexWorkersAfter: 0, log: () => {}, ...options });

function facts(s: LocalSource) {
  const session = s.session(HOST, 'shared');
  return { project: session?.project, files: session?.files.map((f) => f.path), atoms: session?.atomCount, turns: session?.turnCount, epoch: session?.epoch };
}

describe('a session key with files in two projects', () => {
  it('holds both files’ lines, the same with a worker as by the kernel thread alone', async () => {
    const alone = source({ indexWorkers: 0 });
    await alone.start();
    const expected = facts(alone);
    await alone.stop();
    // every line of both files: 3 prompts and answers, then 2
    expect(expected).toMatchObject({ atoms: 10, turns: 5 });

    const s = source({ indexWorkers: 1, waitForIndexWorkers: true });
    try {
      await s.start();
      expect(facts(s)).toEqual(expected);
    } finally {
      await s.stop();
    }
  });
});
