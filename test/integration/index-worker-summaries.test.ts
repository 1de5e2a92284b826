import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { IndexPool } from '../../spoke/transcripts/index-pool';
import { writeConversation } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// A worker is given its project's summaries as they were when it was shared, and hands back only
// those it read: a summary the kernel's thread read meanwhile for one of those leaves (from a file
// written while the project was with the worker) must not be overwritten by the older text.

const HOST = 'test';
let root: string;
let app: string;

const summary = (text: string) => `${JSON.stringify({ type: 'summary', summary: text, leafUuid: 'target-a1' })}\n`;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-review-seed-'));
  app = join(root, '-home-dev-app');
  mkdirSync(app);
  const files = [
    writeConversation(join(app, 'newest.jsonl'), 'newest', 2, { pad: 10, head: summary('Old name') }),
    writeConversation(join(app, 'target.jsonl'), 'target', 2),
    // over 4 MB: the worker takes a while over the project
    writeConversation(join(app, 'big.jsonl'), 'big', 1200, { pad: 4096 }),
  ];
  const now = Date.now() / 1000;
  for (const [i, path] of files.entries()) utimesSync(path, now - 3600 - i * 60, now - 3600 - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

describe('a summary read while its project is with a worker', () => {
  it('is not overwritten by the older text the worker was seeded with', async () => {
    const share = vi.spyOn(IndexPool.prototype, 'share');
    const s = new LocalSource({ projectsRoot: root, host: HOST, indexWorkers: 1, indexWorkersAfter: 1, waitForIndexWorkers: true, log: () => {} });
    try {
      const started = s.start();
      await until(() => share.mock.calls.length > 0, 'the project shared');
      // a session resumed while the index runs: its new file renames the target
      writeConversation(join(app, 'fresh.jsonl'), 'fresh', 1, { pad: 10, head: summary('New name') });
      await until(() => s.session(HOST, 'fresh'), 'the new file read');
      await started;
      expect(s.kernel().indexing.filesByWorkers).toBe(2);
      await s.turns(HOST, 'target'); // awake: named from the project's summaries as they stand
      expect(s.session(HOST, 'target')?.name).toBe('New name');
    } finally {
      await s.stop();
    }
  });
});
