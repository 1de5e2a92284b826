import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';
import { IndexPool } from '../../spoke/transcripts/index-pool';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { transcriptLine, writeConversation } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// The index workers take whole projects (or what is left of one the kernel's thread began) from
// the last, the kernel's thread claims the others from the first. Made to happen here at known
// projects: the one worker is running before the kernel's thread reads a file, and the oldest
// project is larger than a worker holds more than one of.

const HOST = 'test';
let root: string;

/** in the first index's order (newest first) */
let files: Record<'newest' | 'agentA' | 'filler' | 'agentB' | 'parent' | 'older' | 'other' | 'another' | 'old', string>;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-index-projects-'));
  const app = join(root, '-home-dev-app');
  const agents = join(app, 'parent', 'subagents');
  const lib = join(root, '-home-dev-lib');
  const big = join(root, '-home-dev-big');
  mkdirSync(agents, { recursive: true });
  mkdirSync(lib);
  mkdirSync(big);
  // a summary in the newest file names an older session of its project (as a resumed session's file does)
  const summary = `${JSON.stringify({ type: 'summary', summary: 'Named by a newer file', leafUuid: 'older-a1' })}\n`;
  files = {
    newest: writeConversation(join(app, 'newest.jsonl'), 'newest', 2, { pad: 10, head: summary }),
    agentA: writeConversation(join(agents, 'agent-a.jsonl'), 'parent', 2),
    filler: writeConversation(join(app, 'filler.jsonl'), 'filler', 2),
    agentB: writeConversation(join(agents, 'agent-b.jsonl'), 'parent', 2),
    parent: writeConversation(join(app, 'parent.jsonl'), 'parent', 2),
    older: writeConversation(join(app, 'older.jsonl'), 'older', 2),
    other: writeConversation(join(lib, 'other.jsonl'), 'other', 2),
    another: writeConversation(join(lib, 'another.jsonl'), 'another', 2),
    // over 16 MB: the worker holds it alone
    old: writeConversation(join(big, 'old.jsonl'), 'old', 1100, { pad: 16384 }),
  };
  const now = Date.now() / 1000;
  for (const [i, path] of Object.values(files).entries()) utimesSync(path, now - 3600 - i * 60, now - 3600 - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const source = (options: Partial<LocalSourceOptions>) => new LocalSource({ projectsRoot: root, host: HOST, indexWorkersAfter: 0, log: () => {}, ...options });

/** What the first index decides of the tree's sessions that the projects' order could change. */
function facts(s: LocalSource) {
  return ['newest', 'parent', 'older', 'filler', 'other', 'another', 'old'].map((key) => {
    const session = s.session(HOST, key);
    return { key, name: session?.name, subagents: session?.subagentKeys, atoms: session?.atomCount };
  });
}

let expected: ReturnType<typeof facts>;

beforeAll(async () => {
  const alone = source({ indexWorkers: 0 });
  await alone.start();
  expected = facts(alone);
  await alone.stop();
});

/** The worker is running before the kernel's thread reads its first file: it has taken the oldest project. */
function kernelWaitsForTheWorker(): void {
  type Tracker = { pump: (...args: unknown[]) => Promise<void>; pool: { slots: Set<{ ready: boolean }> } | null };
  const tracker = TranscriptTracker.prototype as unknown as Tracker;
  const pump = tracker.pump;
  let first = true;
  vi.spyOn(tracker, 'pump').mockImplementation(async function (this: Tracker, ...args: unknown[]) {
    if (first) {
      first = false;
      await until(() => [...(this.pool?.slots ?? [])].some((slot) => slot.ready), 'the index worker');
    }
    return pump.apply(this, args);
  });
}

describe('the first index, project by project', () => {
  it('gives what is left of a project the kernel thread began to a worker with its summaries, and builds the same index', async () => {
    expect(expected.find((f) => f.key === 'older')?.name).toBe('Named by a newer file');
    expect(expected.find((f) => f.key === 'parent')?.subagents).toEqual(['agent-a', 'agent-b']);
    // the newest file alone, then every project by the worker: the rest of app/ among them
    const s = source({ indexWorkers: 1, indexWorkersAfter: 1, waitForIndexWorkers: true });
    try {
      await s.start();
      const { filesByWorkers, filesDone } = s.kernel().indexing;
      expect(filesByWorkers).toBe(filesDone - 1);
      expect(facts(s)).toEqual(expected);
    } finally {
      await s.stop();
    }
  });

  it('lets the kernel thread claim the projects no worker has begun, while the worker indexes the oldest', async () => {
    kernelWaitsForTheWorker();
    const claim = vi.spyOn(IndexPool.prototype, 'claim');
    const s = source({ indexWorkers: 1 });
    try {
      await s.start();
      expect(claim.mock.results.map((r) => r.value)).toEqual([true, true, false]);
      expect(s.kernel().indexing.filesByWorkers).toBe(1);
      expect(facts(s)).toEqual(expected);
    } finally {
      await s.stop();
    }
  });

  it('holds a file written while its project is with a worker, and reads what it gained once the project is in', async () => {
    const written = join(root, 'written');
    rmSync(written, { recursive: true, force: true });
    mkdirSync(join(written, '-home-dev-grows'), { recursive: true });
    const path = writeConversation(join(written, '-home-dev-grows', 'grows.jsonl'), 'grows', 1200, { pad: 4096 });
    const share = vi.spyOn(IndexPool.prototype, 'share');
    const s = source({ projectsRoot: written, indexWorkers: 1, waitForIndexWorkers: true });
    try {
      const started = s.start();
      await until(() => share.mock.calls.length > 0, 'the project shared');
      // before the worker reads it (its start takes longer than the watch's signal): the signal's read waits
      appendFileSync(path, transcriptLine('grows', 'grows-late', 'grows-a1199', 'user', 'written while held'));
      await started;
      expect(s.kernel().indexing.filesByWorkers).toBe(1);
      await until(() => s.session(HOST, 'grows')?.atomCount === 2401, 'the late line');
    } finally {
      await s.stop();
      rmSync(written, { recursive: true, force: true });
    }
  });

  it('stops at once with projects still with a worker, reading no file after', async () => {
    kernelWaitsForTheWorker();
    const s = source({ indexWorkers: 1 });
    let stopped: Promise<void> | null = null;
    let doneAtStop = -1;
    try {
      await s.start((progress) => {
        if (progress.filesDone !== 1 || stopped) return;
        setImmediate(() => {
          doneAtStop = progress.filesDone;
          stopped = s.stop();
        });
      });
      await until(() => doneAtStop >= 0, 'the stop');
      await stopped;
      expect(s.kernel().indexing.filesDone).toBe(1);
    } finally {
      await (stopped ?? s.stop());
    }
  });
});
