import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { Prefetch } from '../../spoke/transcripts/index-pool';
import { ReadAhead } from '../../spoke/transcripts/read-ahead';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { transcriptLine } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// The kernel's thread reads a file out of its turn while the index worker still reads the one
// whose turn it is. Made to happen here, at a known file: the worker is running before the first
// file is read, and is slow with the large one.

const HOST = 'test';
let root: string;

/** A transcript of `lines` prompts and answers, each prompt `pad` bytes long. */
function write(path: string, session: string, lines: number, pad = 10): string {
  let text = '';
  for (let i = 0; i < lines; i++) {
    text += transcriptLine(session, `${session}-u${i}`, i === 0 ? null : `${session}-a${i - 1}`, 'user', 'x'.repeat(pad));
    text += transcriptLine(session, `${session}-a${i}`, `${session}-u${i}`, 'assistant', 'ok');
  }
  writeFileSync(path, text);
  return path;
}

/** in the first index's order (newest first) */
let files: { newest: string; agentA: string; filler: string; agentB: string; other: string; another: string; parent: string };

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-steal-'));
  const project = join(root, '-home-dev-app');
  const agents = join(project, 'parent', 'subagents');
  const elsewhere = join(root, '-home-dev-lib');
  mkdirSync(agents, { recursive: true });
  mkdirSync(elsewhere);
  files = {
    newest: write(join(project, 'newest.jsonl'), 'newest', 2),
    // over 4 MB: the worker holds it and the filler only; the rest are the kernel thread's to take
    agentA: write(join(agents, 'agent-a.jsonl'), 'parent', 1200, 4096),
    filler: write(join(project, 'filler.jsonl'), 'filler', 2),
    agentB: write(join(agents, 'agent-b.jsonl'), 'parent', 2),
    other: write(join(elsewhere, 'other.jsonl'), 'other', 2),
    another: write(join(elsewhere, 'another.jsonl'), 'another', 2),
    parent: write(join(project, 'parent.jsonl'), 'parent', 2),
  };
  const now = Date.now() / 1000;
  for (const [i, path] of Object.values(files).entries()) utimesSync(path, now - i * 60, now - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const source = (indexWorkers: number) => new LocalSource({ projectsRoot: root, host: HOST, indexWorkers, indexWorkersAfter: 0, log: () => {} });

/**
 * The worker is running before the kernel's thread reads the first file, and has not posted a
 * batch of agent-a the first `slow` times the kernel's thread looks.
 */
function stealAtAgentA(slow: number): void {
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
  const ready = Object.getOwnPropertyDescriptor(Prefetch.prototype, 'ready')!.get!;
  let looked = 0;
  vi.spyOn(Prefetch.prototype, 'ready', 'get').mockImplementation(function (this: Prefetch) {
    if (this.path === files.agentA && looked++ < slow) return false;
    return ready.call(this);
  });
}

describe('the first index, with the kernel thread reading out of turn', () => {
  it('lists a session’s subagents in the same order as the kernel thread alone', async () => {
    const alone = source(0);
    await alone.start();
    const expected = alone.session(HOST, 'parent')?.subagentKeys;
    await alone.stop();
    expect(expected).toEqual(['agent-a', 'agent-b']);

    stealAtAgentA(1);
    const steal = vi.spyOn(ReadAhead.prototype, 'steal');
    const stealing = source(1);
    try {
      await stealing.start();
      const { filesByWorkers, filesDone, filesTotal } = stealing.kernel().indexing;
      expect(filesDone).toBe(filesTotal);
      expect(stealing.session(HOST, 'parent')?.subagentKeys).toEqual(expected);
      // read while the worker read agent-a: a file of another project, not agent-b
      expect(steal.mock.results[0].value).toBe(files.other);
      expect(filesByWorkers).toBeGreaterThanOrEqual(2);
    } finally {
      await stealing.stop();
    }
  });

  it('reads no file once stopped between two files read out of turn', async () => {
    stealAtAgentA(2);
    const stealing = source(1);
    let stopped: Promise<void> | null = null;
    let doneAtStop = -1;
    try {
      await stealing.start((progress) => {
        // the newest file, then one read out of turn: stopped before the next begins
        if (progress.filesDone !== 2 || stopped) return;
        setImmediate(() => {
          doneAtStop = progress.filesDone;
          stopped = stealing.stop();
        });
      });
      await until(() => doneAtStop >= 0, 'the stop');
      await stopped;
      expect(doneAtStop).toBe(2);
      expect(stealing.kernel().indexing.filesDone).toBe(2);
    } finally {
      await (stopped ?? stealing.stop());
    }
  });
});
