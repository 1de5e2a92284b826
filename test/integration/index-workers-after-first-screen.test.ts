import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { writeConversation } from '../helpers/transcript-tree';

// The kernel's thread reads the newest files alone until 64 MB are read, or sooner once the
// first screen is listed (50 sessions) if 64 MB are left for the index workers. Here in small:
// the 64 MB are `indexWorkersAfter`, the tree a few hundred kilobytes, the oldest project the
// most of it.

const HOST = 'test';
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-first-screen-'));
  const recent = join(root, '-home-dev-recent');
  const old = join(root, '-home-dev-old');
  mkdirSync(recent);
  mkdirSync(old);
  // in the first index's order (newest first): a file that lists no session (a summary alone),
  // 52 sessions of one project, 5 of another
  const files = [join(recent, 'only-a-summary.jsonl')];
  writeFileSync(files[0], `${JSON.stringify({ type: 'summary', summary: 'A name for nothing here', leafUuid: 'elsewhere' })}\n`);
  for (let i = 0; i < 52; i++) files.push(writeConversation(join(recent, `recent-${i}.jsonl`), `recent-${i}`, 1));
  for (let i = 0; i < 5; i++) files.push(writeConversation(join(old, `old-${i}.jsonl`), `old-${i}`, 1, { pad: 100_000 }));
  const now = Date.now() / 1000;
  for (const [i, path] of files.entries()) utimesSync(path, now - 3600 - i * 60, now - 3600 - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** How many files the index workers read when the kernel's thread reads at most `alone` bytes alone. */
async function filesByWorkers(alone: number): Promise<number> {
  const s = new LocalSource({ projectsRoot: root, host: HOST, indexWorkers: 1, indexWorkersAfter: alone, waitForIndexWorkers: true, log: () => {} });
  try {
    await s.start();
    expect(s.kernel().indexing.filesDone).toBe(58);
    expect(s.kernel().sessionCount).toBe(57);
    return s.kernel().indexing.filesByWorkers;
  } finally {
    await s.stop();
  }
}

it('hands the index workers every file after the 50 newest sessions listed, the file that lists none not counted', async () => {
  // 1 + 50 files read alone (under 100 KB); the last 2 of the recent project and the 5 old ones (500 KB) by the worker
  expect(await filesByWorkers(200_000)).toBe(7);
});

it('reads on alone past the first screen when less is left than it would read alone', async () => {
  expect(await filesByWorkers(1_000_000)).toBe(0);
});
