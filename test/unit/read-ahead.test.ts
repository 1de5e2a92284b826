import { describe, expect, it } from 'vitest';
import { type IndexPool, Prefetch } from '../../spoke/transcripts/index-pool';
import { ReadAhead } from '../../spoke/transcripts/read-ahead';
import type { PackedRecords } from '../../spoke/transcripts/record-transfer';

// The first index's files in their order, read ahead by workers; the kernel's thread takes each
// at its turn, and reads a file no worker has begun rather than wait for a worker.

const place = { fsid: 'f', role: 'main' } as const;
const files = ['a', 'b', 'c', 'd', 'e', 'f'].map((path) => ({ path, size: 10, place, group: path }));
const noRecords: PackedRecords = { count: 0, ints: new Int32Array(0), nums: new Float64Array(0), bytes: new Uint8Array(0), ends: new Int32Array(0) };

/** A pool of one worker that begins nothing by itself: the test says which files it has. */
function fakePool() {
  const handedOut = new Map<string, Prefetch>();
  let job = 0;
  const pool = {
    size: 1,
    read(path: string, _: typeof place, size: number) {
      const prefetch = new Prefetch(++job, path, place, size);
      handedOut.set(path, prefetch);
      return prefetch;
    },
  };
  return { pool: pool as unknown as IndexPool, handedOut };
}

describe('ReadAhead', () => {
  it('hands the workers the files within its budget, in their order', () => {
    const { pool, handedOut } = fakePool();
    new ReadAhead(pool, files, false, 30);
    expect([...handedOut.keys()]).toEqual(['a', 'b', 'c']);
  });

  it("gives the kernel's thread the next file no worker has begun, while a worker still reads the file whose turn it is", () => {
    const { pool, handedOut } = fakePool();
    const ahead = new ReadAhead(pool, files, false, 40);
    handedOut.get('a')!.started = true;
    handedOut.get('b')!.started = true;
    handedOut.get('d')!.started = true;
    const a = ahead.take('a');
    expect(a).toBe(handedOut.get('a'));
    expect(a!.ready).toBe(false);
    expect(ahead.steal()).toBe('c');
    expect(handedOut.get('c')!.wanted).toBe(false);
    // taking a and c freed budget for e and f, which come after the file a worker has (d)
    expect(ahead.steal()).toBe('e');
    expect(ahead.steal()).toBe('f');
    // b and d have a worker: nothing is left to take
    expect(ahead.steal()).toBe(null);
    expect(ahead.take('b')).toBe(handedOut.get('b'));
    // a file read out of its turn is no worker's when its turn comes
    expect(ahead.take('c')).toBe(null);
  });

  it("never gives the kernel's thread a file of a session whose files it would pass", () => {
    const { pool, handedOut } = fakePool();
    // a and d are one session's (a subagent's and its parent's, say), as are b and e
    const grouped = files.map((f) => ({ ...f, group: { a: 'A', d: 'A', b: 'B', e: 'B' }[f.path] ?? f.path }));
    const ahead = new ReadAhead(pool, grouped, false, 60);
    handedOut.get('a')!.started = true;
    handedOut.get('b')!.started = true;
    ahead.take('a');
    // c passes a and b, which a worker has; d would pass a, e would pass b
    expect(ahead.steal()).toBe('c');
    expect(ahead.steal()).toBe('f');
    expect(ahead.steal()).toBe(null);
  });

  it('calls a file ready once a batch of it has come, or the worker is done with it', () => {
    const prefetch = new Prefetch(1, 'a', place, 10);
    expect(prefetch.ready).toBe(false);
    prefetch.arrived({ records: noRecords, state: null }, false);
    expect(prefetch.ready).toBe(true);
    const failed = new Prefetch(2, 'b', place, 10);
    failed.fail({ message: 'gone', died: true });
    expect(failed.ready).toBe(true);
  });

  it('gives the kernel thread nothing out of turn when told to wait for the workers', () => {
    const { pool } = fakePool();
    const ahead = new ReadAhead(pool, files, true, 40);
    ahead.take('a');
    expect(ahead.steal()).toBe(null);
  });
});
