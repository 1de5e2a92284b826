import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import { writeConversation } from '../helpers/transcript-tree';

// A project cut into portions is read by several catalogs at once. A `summary` line in a newer
// file that names an atom in the middle of an older session's path (not its last) reaches that
// session, in another portion, only once the first index wakes it; and of two summaries of one
// leaf, the one read last in the kernel thread's order names it, though workers take the older
// portions first (summary-reach.ts). The list must show each session as the kernel's thread
// reading the projects alone names it.

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
  const twice = join(root, '-home-dev-twice');
  mkdirSync(twice);
  files.push(
    writeConversation(join(twice, 'new.jsonl'), 'new', 1, { head: summary('target-a1', 'First text') }),
    writeConversation(join(twice, 'mid.jsonl'), 'mid', 1, { head: summary('target-a1', 'Second text') }),
    writeConversation(join(twice, 'target.jsonl'), 'target', 2),
  );
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

describe('summaries read in portions of a project', () => {
  it('name the sessions asleep in other portions as the kernel thread alone names them', async () => {
    const alone = await listedNames({ indexWorkers: 0 });
    expect(alone.older).toBe('Named in the middle of its path');
    expect(alone.last).toBe('Named at its end');
    // read newest first, the older file's text comes last
    expect(alone.target).toBe('Second text');
    // every session a portion of its own, every portion a worker's
    for (const indexWorkers of [1, 2]) {
      expect(await listedNames({ indexWorkers, indexPortionBytes: 1, waitForIndexWorkers: true })).toEqual(alone);
    }
  });
});
