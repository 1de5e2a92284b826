import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { transcriptLine, writeConversation } from '../helpers/transcript-tree';

// The kernel's thread reads the newest files alone until 64 MB are read, or sooner once the
// first screen is listed (50 sessions, and any file as new as its last) if 64 MB are left for the
// index workers. Here in small:
// the 64 MB are `indexWorkersAfter`, the tree a few hundred kilobytes, the oldest project the
// most of it.

const HOST = 'test';
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tree(): string {
  const root = mkdtempSync(join(tmpdir(), 'loom-first-screen-'));
  roots.push(root);
  return root;
}

/** newest first, a minute apart */
function age(files: string[]): void {
  const now = Date.now() / 1000;
  for (const [i, path] of files.entries()) utimesSync(path, now - 3600 - i * 60, now - 3600 - i * 60);
}

/**
 * The first index when the kernel's thread reads at most `alone` bytes alone: how many files the
 * index workers read, how many were indexed in all, and how many sessions they hold.
 */
async function firstIndex(root: string, alone: number, cacheFile?: string): Promise<{ byWorkers: number; files: number; sessions: number }> {
  const s = new LocalSource({ projectsRoot: root, host: HOST, indexWorkers: 1, indexWorkersAfter: alone, waitForIndexWorkers: true, cacheFile, log: () => {} });
  try {
    await s.start();
    const { indexing, sessionCount } = s.kernel();
    return { byWorkers: indexing.filesByWorkers, files: indexing.filesDone, sessions: sessionCount };
  } finally {
    await s.stop();
  }
}

describe('the first index with a worker', () => {
  let root: string;
  beforeAll(() => {
    root = tree();
    const recent = join(root, '-home-dev-recent');
    const old = join(root, '-home-dev-old');
    mkdirSync(recent);
    mkdirSync(old);
    // newest first: a file that lists no session (a summary alone), 52 sessions of one project,
    // 5 of another, the most of the tree
    const files = [join(recent, 'only-a-summary.jsonl')];
    writeFileSync(files[0], `${JSON.stringify({ type: 'summary', summary: 'A name for nothing here', leafUuid: 'elsewhere' })}\n`);
    for (let i = 0; i < 52; i++) files.push(writeConversation(join(recent, `recent-${i}.jsonl`), `recent-${i}`, 1));
    for (let i = 0; i < 5; i++) files.push(writeConversation(join(old, `old-${i}.jsonl`), `old-${i}`, 1, { pad: 100_000 }));
    age(files);
  });

  it('hands the index workers every file after the 50 newest sessions listed, the file that lists none not counted', async () => {
    // 1 + 50 files read alone (under 100 KB); the last 2 of the recent project and the 5 old ones (500 KB) by the worker
    expect(await firstIndex(root, 200_000)).toEqual({ byWorkers: 7, files: 58, sessions: 57 });
  });

  it('reads on alone past the first screen when less is left than it would read alone', async () => {
    expect(await firstIndex(root, 1_000_000)).toEqual({ byWorkers: 0, files: 58, sessions: 57 });
  });
});

it('reads on alone through every file as new as the first screen’s last, since which of them is newer no one can tell', async () => {
  const root = tree();
  const [recent, old] = ['-home-dev-recent', '-home-dev-old'].map((p) => join(root, p));
  for (const dir of [recent, old]) mkdirSync(dir);
  const files: string[] = [];
  for (let i = 0; i < 52; i++) files.push(writeConversation(join(recent, `recent-${i}.jsonl`), `recent-${i}`, 1));
  for (let i = 0; i < 5; i++) files.push(writeConversation(join(old, `old-${i}.jsonl`), `old-${i}`, 1, { pad: 100_000 }));
  age(files);
  // the 50th session and the two after it written in the same instant (a filesystem's clock
  // ticks in milliseconds or coarser): any of the three is one of the 50 newest
  const { mtime } = statSync(files[49]);
  for (const path of files.slice(50, 52)) utimesSync(path, mtime, mtime);
  expect(await firstIndex(root, 200_000)).toEqual({ byWorkers: 5, files: 57, sessions: 57 });
});

it('counts a session with files in two projects once toward the first screen', async () => {
  const root = tree();
  const [recent, copy, old] = ['-home-dev-recent', '-home-dev-copy', '-home-dev-old'].map((p) => join(root, p));
  for (const dir of [recent, copy, old]) mkdirSync(dir);
  // newest first: 49 sessions, a copy of the first of them in another project (the same session
  // key), the 50th session, then 500 KB the workers are for
  const files: string[] = [];
  for (let i = 0; i < 49; i++) files.push(writeConversation(join(recent, `recent-${i}.jsonl`), `recent-${i}`, 1));
  files.push(writeConversation(join(copy, 'recent-0.jsonl'), 'recent-0', 1));
  files.push(writeConversation(join(recent, 'recent-49.jsonl'), 'recent-49', 1));
  for (let i = 0; i < 5; i++) files.push(writeConversation(join(old, `old-${i}.jsonl`), `old-${i}`, 1, { pad: 100_000 }));
  age(files);
  // 50 sessions are listed only once recent-49 is read: the workers take the 5 old files alone
  expect(await firstIndex(root, 200_000)).toEqual({ byWorkers: 5, files: 56, sessions: 55 });
});

it('counts as left for the workers only the files they could take, not those read on from the index cache', async () => {
  const root = tree();
  const cacheFile = join(tree(), 'index-cache');
  const [recent, fresh, old] = ['-home-dev-recent', '-home-dev-fresh', '-home-dev-old'].map((p) => join(root, p));
  for (const dir of [recent, fresh, old]) mkdirSync(dir);
  const files: string[] = [];
  for (let i = 0; i < 52; i++) files.push(writeConversation(join(recent, `recent-${i}.jsonl`), `recent-${i}`, 1));
  const olds: string[] = [];
  for (let i = 0; i < 5; i++) olds.push(writeConversation(join(old, `old-${i}.jsonl`), `old-${i}`, 1, { pad: 100_000 }));
  age([...files, ...olds]);
  // the first run leaves every file in the cache
  const first = new LocalSource({ projectsRoot: root, host: HOST, indexWorkers: 0, cacheFile, log: () => {} });
  await first.start();
  await first.stop();
  // since: two small sessions in a new project, and a line more in each old file, read on from
  // its cached offset (a project the workers never take)
  const added = [0, 1].map((i) => writeConversation(join(fresh, `fresh-${i}.jsonl`), `fresh-${i}`, 1));
  for (const [i, path] of olds.entries()) appendFileSync(path, transcriptLine(`old-${i}`, `old-${i}-u9`, `old-${i}-a0`, 'user', 'more'));
  age([...files, ...added, ...olds]);
  // left for the workers: two files of a few hundred bytes, far under 200 KB: read alone
  expect(await firstIndex(root, 200_000, cacheFile)).toEqual({ byWorkers: 0, files: 59, sessions: 59 });
});
