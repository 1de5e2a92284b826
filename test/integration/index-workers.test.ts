import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import type { FromIndexer } from '../../spoke/transcripts/index-messages';
import { defaultIndexWorkers, IndexPool } from '../../spoke/transcripts/index-pool';
import { everything } from '../helpers/index-snapshot';
import { FIXTURES } from '../helpers/kernel';
import { until } from '../helpers/wait';

// Index workers index portions of the first read (a few MB of a project's sessions each) on other
// threads; the kernel's thread takes in what they made of each. Whatever the number of workers,
// and however projects are cut, the index must be the same.

const HOST = 'test';
const logs: string[] = [];
let alone: LocalSource;
let withWorkers: LocalSource;

/**
 * A source on the fixtures whose workers start at once; a small awake limit: sessions fall asleep
 * and wake while the index is built, as on a large history.
 */
const sourceWith = (options: Partial<LocalSourceOptions>) =>
  new LocalSource({ projectsRoot: FIXTURES, host: HOST, awakeLimit: 2, indexWorkersAfter: 0, ...options });

async function indexed(indexWorkers: number): Promise<LocalSource> {
  const source = sourceWith({ indexWorkers, waitForIndexWorkers: true, log: (m) => logs.push(m) });
  await source.start();
  return source;
}

/** The workers of a source's first read, while it runs (the pool is the tracker's own). */
const workersOf = (source: LocalSource): Worker[] => {
  const pool = (source as unknown as { tracker: { pool: { slots: Set<{ worker: Worker }> } | null } }).tracker.pool;
  return pool ? [...pool.slots].map((slot) => slot.worker) : [];
};

beforeAll(async () => {
  alone = await indexed(0);
  withWorkers = await indexed(2);
});
afterAll(async () => {
  await alone?.stop();
  await withWorkers?.stop();
});

describe('index workers', () => {
  it('say how many index the first read', () => {
    expect(alone.kernel().indexing.workers).toBe(0);
    expect(withWorkers.kernel().indexing.workers).toBe(2);
    expect(alone.kernel().indexing.filesByWorkers).toBe(0);
    expect(withWorkers.kernel().indexing.filesByWorkers).toBe(withWorkers.kernel().indexing.filesDone);
  });

  it('build the same index of every fixture session as the kernel thread alone', async () => {
    const expected = await everything(alone, HOST);
    expect(expected.length).toBeGreaterThan(20);
    expect(await everything(withWorkers, HOST)).toEqual(expected);
    expect(logs).toEqual([]);
  });

  it('build the same index with an index cache, which a restart without workers brings back the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loom-index-workers-'));
    const cacheFile = join(dir, 'index-cache.json');
    const expected = await everything(alone, HOST);
    try {
      // the sessions' usage rows and goals go to the cache's blob file, moved to where they land there
      const cold = sourceWith({ indexWorkers: 2, waitForIndexWorkers: true, cacheFile });
      await cold.start();
      expect(cold.kernel().indexing.filesByWorkers).toBe(cold.kernel().indexing.filesDone);
      expect(await everything(cold, HOST)).toEqual(expected);
      await cold.stop();
      const warm = sourceWith({ indexWorkers: 0, cacheFile });
      await warm.start();
      expect(warm.kernel().indexing.filesFromCache).toBe(warm.kernel().indexing.filesDone);
      expect(await everything(warm, HOST)).toEqual(expected);
      await warm.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('build the same index when their one worker dies part way, leaving the projects it held to the kernel thread', async () => {
    const said: string[] = [];
    const source = sourceWith({ indexWorkers: 1, waitForIndexWorkers: true, log: (m) => said.push(m) });
    try {
      const started = source.start();
      // stopped once it has posted its first project, holding the next ones: those never come
      const worker = await until(() => workersOf(source)[0], 'the index worker');
      worker.on('message', (message: FromIndexer) => {
        if (message.kind !== 'indexed') return;
        worker.removeAllListeners('message');
        void worker.terminate();
      });
      await started;
      expect(said).toHaveLength(1);
      expect(said[0]).toMatch(/^an index worker stopped \(it exited\) while indexing the project \S+; the main thread reads it$/);
      const { filesByWorkers, filesDone } = source.kernel().indexing;
      expect(filesByWorkers).toBeGreaterThan(0);
      expect(filesByWorkers).toBeLessThan(filesDone);
      expect(await everything(source, HOST)).toEqual(await everything(alone, HOST));
    } finally {
      await source.stop();
    }
  });

  it('build the same index when the kernel thread reads what no worker has begun rather than wait for one', async () => {
    const said: string[] = [];
    const source = sourceWith({ indexWorkers: 1, log: (m) => said.push(m) });
    try {
      await source.start();
      const { filesByWorkers, filesDone, filesTotal } = source.kernel().indexing;
      expect(filesDone).toBe(filesTotal);
      expect(filesByWorkers).toBeLessThan(filesDone);
      expect(await everything(source, HOST)).toEqual(await everything(alone, HOST));
      expect(said).toEqual([]);
    } finally {
      await source.stop();
    }
  });

  it("build the same index when each session is a portion of its own, a project's sessions spread over two workers", async () => {
    const share = vi.spyOn(IndexPool.prototype, 'share');
    const source = sourceWith({ indexWorkers: 2, indexPortionBytes: 1, waitForIndexWorkers: true });
    try {
      await source.start();
      const projects = new Set(share.mock.calls.map(([work]) => work.project));
      // more portions than projects: some project was cut
      expect(share.mock.calls.length).toBeGreaterThan(projects.size);
      expect(source.kernel().indexing.filesByWorkers).toBe(source.kernel().indexing.filesDone);
      expect(await everything(source, HOST)).toEqual(await everything(alone, HOST));
    } finally {
      share.mockRestore();
      await source.stop();
    }
  });

  it('start once the kernel thread has read the newest files alone, and build the same index', async () => {
    const source = sourceWith({ indexWorkers: 1, indexWorkersAfter: 1, waitForIndexWorkers: true });
    try {
      await source.start();
      const { filesByWorkers, filesDone } = source.kernel().indexing;
      // the first file reaches the threshold of one byte alone; every file after it is the worker's
      expect(filesByWorkers).toBe(filesDone - 1);
      expect(await everything(source, HOST)).toEqual(await everything(alone, HOST));
    } finally {
      await source.stop();
    }
  });

  it('are none by default on one core, else one per core beyond the kernel thread, at most two', () => {
    expect([1, 2, 3, 4, 8, 64].map((cores) => defaultIndexWorkers(cores))).toEqual([0, 1, 2, 2, 2, 2]);
  });
});
