import { mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { writeConversation } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// The one index worker dies while projects still wait in the queue (no worker began them): the
// pool fails each at once and the kernel's thread reads it, and when its own loop comes to that
// project it must not claim it and read it again (files counted twice, progress past 100 %).

const HOST = 'test';
let root: string;
const keys: string[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-review-death-'));
  const now = Date.now() / 1000;
  let n = 0;
  for (let p = 0; p < 4; p++) {
    const dir = join(root, `-home-dev-p${p}`);
    mkdirSync(dir);
    // the newest project is small: the kernel's thread comes to the next ones while takeProject reads them
    for (let f = 0; f < (p === 0 ? 1 : 6); f++) {
      const key = `p${p}-s${f}`;
      keys.push(key);
      const path = join(dir, `${key}.jsonl`);
      writeConversation(path, key, p === 0 ? 2 : 400, { pad: 1000 });
      utimesSync(path, now - 3600 - n * 60, now - 3600 - n * 60);
      n++;
    }
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const source = (options: Partial<LocalSourceOptions>) => new LocalSource({ projectsRoot: root, host: HOST, indexWorkersAfter: 0, log: () => {}, ...options });

function facts(s: LocalSource) {
  return keys.map((key) => {
    const session = s.session(HOST, key);
    return { key, atoms: session?.atomCount, files: session?.files, errors: session?.parseErrors, usage: s.sessionUsage(HOST, key, true) };
  });
}

/** The one worker is terminated (and has exited) before the kernel's thread reads its first file. */
function workerDiesFirst(): void {
  type Slot = { worker: { terminate(): Promise<number> } };
  type Tracker = { pump: (...args: unknown[]) => Promise<void>; pool: { slots: Set<Slot> } | null };
  const tracker = TranscriptTracker.prototype as unknown as Tracker;
  const pump = tracker.pump;
  let first = true;
  vi.spyOn(tracker, 'pump').mockImplementation(async function (this: Tracker, ...args: unknown[]) {
    if (first && this.pool) {
      first = false;
      const pool = this.pool;
      for (const slot of pool.slots) void slot.worker.terminate();
      await until(() => pool.slots.size === 0, 'the worker gone');
    }
    return pump.apply(this, args);
  });
}

describe('an index worker that dies with projects still queued', () => {
  it('leaves each project read once, every file counted once', async () => {
    const alone = source({ indexWorkers: 0 });
    await alone.start();
    const expected = facts(alone);
    await alone.stop();

    workerDiesFirst();
    const s = source({ indexWorkers: 1 });
    try {
      await s.start();
      const { filesDone, filesTotal, bytesDone, bytesTotal } = s.kernel().indexing;
      expect(facts(s)).toEqual(expected);
      expect({ filesDone, bytesDone }).toEqual({ filesDone: filesTotal, bytesDone: bytesTotal });
    } finally {
      await s.stop();
    }
  });
});
