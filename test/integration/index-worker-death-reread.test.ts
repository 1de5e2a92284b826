import { appendFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import { IndexPool } from '../../spoke/transcripts/index-pool';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { transcriptLine, writeConversation } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// The one index worker dies before it began any project; the kernel's thread reads each. One of
// their files is written meanwhile, and a read of it (a client's catchUp, as a signal's would be)
// is in flight when the kernel's loop comes to that project: releasing the project's hold must not
// end that read's turn, or a second read of the same FileTail would run beside it (lines twice,
// the offset past the file's end).

const HOST = 'test';
let root: string;
let big: string;
let grown = '';

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-review-reread-'));
  const now = Date.now() / 1000;
  const paths: string[] = [];
  for (let p = 0; p < 4; p++) {
    const dir = join(root, `-home-dev-p${p}`);
    mkdirSync(dir);
    const path = join(dir, `p${p}.jsonl`);
    // the last project's file is large: its held read is still going when the kernel's thread comes to it
    writeConversation(path, `p${p}`, p === 3 ? 6000 : 20, { pad: 4000 });
    paths.push(path);
  }
  big = paths[3];
  for (let i = 6000; i < 10000; i++) {
    grown += transcriptLine('p3', `p3-u${i}`, `p3-a${i - 1}`, 'user', 'y'.repeat(4000));
    grown += transcriptLine('p3', `p3-a${i}`, `p3-u${i}`, 'assistant', 'ok');
  }
  for (const [i, path] of paths.entries()) utimesSync(path, now - 3600 - i * 60, now - 3600 - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const source = (options: Partial<LocalSourceOptions>) => new LocalSource({ projectsRoot: root, host: HOST, indexWorkersAfter: 0, log: () => {}, ...options });

describe('an index worker that dies before it began a project, one of whose files was written meanwhile', () => {
  it('leaves that file read once, to its end', async () => {
    type Slot = { worker: { terminate(): Promise<number> } };
    type Tracker = {
      pump: (...args: unknown[]) => Promise<void>;
      pool: { slots: Set<Slot> } | null;
      files: Map<string, { again: boolean; reading: Promise<void> | null; tail: { offset: number } }>;
    };
    // no project is ever given to the worker: it dies before it takes one
    vi.spyOn(IndexPool.prototype as unknown as { dispatch(): void }, 'dispatch').mockImplementation(() => {});
    const proto = TranscriptTracker.prototype as unknown as Tracker;
    const pump = proto.pump;
    let first = true;
    /** the client's read, in flight while the kernel's loop comes to the project */
    let caughtUp: Promise<void> = Promise.resolve();
    vi.spyOn(proto, 'pump').mockImplementation(async function (this: Tracker, ...args: unknown[]) {
      if (first && this.pool) {
        first = false;
        const pool = this.pool;
        for (const slot of pool.slots) void slot.worker.terminate();
        await until(() => pool.slots.size === 0, 'the worker gone');
        // takeProject has read the failed projects; the large file grows, and its signal's read is on
        await until(() => this.files.get(big)?.reading === null && (this.files.get(big)?.tail.offset ?? 0) > 0, 'the file read');
        appendFileSync(big, grown);
        // a client catches the session up (as a signal would read it): a read off the kernel's thread, in flight
        caughtUp = (this as unknown as { catchUp(key: string): Promise<void> }).catchUp('p3');
      }
      return pump.apply(this, args);
    });
    const s = source({ indexWorkers: 1 });
    try {
      await s.start();
      // its 18 MB read to their end (a fixed wait alone was too short on a loaded machine), then time for a second read beside it to show
      await caughtUp;
      await new Promise((r) => setTimeout(r, 500));
      const file = s.session(HOST, 'p3')?.files[0];
      const lines = 12000 + 2 * 4000;
      expect({ bytes: file?.bytes, lines: file?.lines, atoms: s.session(HOST, 'p3')?.atomCount }).toEqual({
        bytes: statSync(big).size,
        lines,
        atoms: lines,
      });
      const { filesDone, filesTotal } = s.kernel().indexing;
      expect(filesDone).toBe(filesTotal);
    } finally {
      vi.restoreAllMocks();
      await s.stop();
    }
  }, 60_000);
});
