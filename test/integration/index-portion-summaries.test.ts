import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import { writeConversation } from '../helpers/transcript-tree';

// A project cut into portions is read by several catalogs at once. A `summary` line in a newer
// file that names an atom in the middle of an older session's path (not its last) reaches that
// session, in another portion, only once the first index wakes it (summary-reach.ts): listed
// asleep, it must carry the name it has when the kernel's thread reads the project alone.

const HOST = 'test';
let root: string;

const summary = (leaf: string, text: string) => `${JSON.stringify({ type: 'summary', summary: text, leafUuid: leaf })}\n`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-portion-summaries-'));
  const app = join(root, '-home-dev-app');
  mkdirSync(app);
  // newest first: the summaries come before the sessions they name, as when a session is resumed
  const files = [
    writeConversation(join(app, 'resumed.jsonl'), 'resumed', 2, {
      head: summary('older-a1', 'Named in the middle of its path') + summary('last-a2', 'Named at its end'),
    }),
    writeConversation(join(app, 'filler.jsonl'), 'filler', 2),
    writeConversation(join(app, 'older.jsonl'), 'older', 4),
    writeConversation(join(app, 'last.jsonl'), 'last', 3),
    writeConversation(join(app, 'unnamed.jsonl'), 'unnamed', 2),
  ];
  const now = Date.now() / 1000;
  for (const [i, path] of files.entries()) utimesSync(path, now - 3600 - i * 60, now - 3600 - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Each session's name as the list shows it, most of them asleep. */
async function listedNames(options: Partial<LocalSourceOptions>): Promise<Record<string, string>> {
  const source = new LocalSource({ projectsRoot: root, host: HOST, awakeLimit: 1, indexWorkersAfter: 0, ...options });
  try {
    await source.start();
    return Object.fromEntries(source.sessions({}, 50, null).sessions.map((s) => [s.key, s.name]));
  } finally {
    await source.stop();
  }
}

describe('a summary read in one portion of a project', () => {
  it('names a session asleep in a later portion as the kernel thread alone names it', async () => {
    const alone = await listedNames({ indexWorkers: 0 });
    expect(alone.older).toBe('Named in the middle of its path');
    expect(alone.last).toBe('Named at its end');
    // every session a portion of its own, every portion a worker's
    for (const indexWorkers of [1, 2]) {
      expect(await listedNames({ indexWorkers, indexPortionBytes: 1, waitForIndexWorkers: true })).toEqual(alone);
    }
  });
});
