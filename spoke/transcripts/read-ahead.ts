import type { FileIngest } from './catalog';
import type { IndexPool, Prefetch } from './index-pool';
import type { TranscriptPlace } from './paths';
import type { TranscriptRecord } from './record';
import { unpackRecords } from './record-transfer';
import type { FileTail } from './tail';

// The first index takes files in one order (newest first); the workers read ahead of it in that
// order, within a budget of transcript bytes handed out and not yet taken, so what waits to be
// taken stays small however large the history. A file no worker has begun when its turn comes
// (the workers are starting, or busy with the files after it) is read by the kernel's thread.
// Nor does the kernel's thread wait for a worker still reading the file whose turn it is: it reads
// the next file no worker has begun itself meanwhile (`steal`), so on few cores it parses too,
// rather than idle while the workers parse. Never one of a project whose files it would pass: the
// catalog takes a project's files in their order, which says the order of a session's files and
// subagents, and which of two summaries of one line names its session.

/** transcript bytes the workers may read ahead of the kernel's thread (their packed results are a fraction) */
export const READ_AHEAD_BYTES = 64 * 1024 * 1024;
/**
 * Transcript bytes of the newest files the kernel's thread reads alone before the workers start:
 * the first screen's sessions are among them, and a worker starting beside them (its own heap and
 * code to load, on a core the kernel's thread shares with V8's helpers) put the first screen
 * 0.1–0.3 s later on two cores (docs/performance.md).
 */
export const INDEX_WORKERS_AFTER_BYTES = 64 * 1024 * 1024;

export interface AheadFile {
  path: string;
  size: number;
  place: Pick<TranscriptPlace, 'fsid' | 'role'>;
  /** the files taken in their order whatever the workers' pace: the project's */
  group: string;
}

export class ReadAhead {
  private next = 0;
  private readonly ahead = new Map<string, { prefetch: Prefetch; size: number; group: string }>();
  private bytes = 0;
  /** the group of the file whose turn it is */
  private taken: string | null = null;

  constructor(
    private readonly pool: IndexPool,
    /** in the order they will be taken */
    private readonly files: AheadFile[],
    /** the kernel's thread waits for the workers to start rather than read the first files itself */
    private readonly waitForWorkers = false,
    private readonly budget = READ_AHEAD_BYTES,
  ) {
    this.topUp();
  }

  /** A file's turn: what a worker read of it, or null when the kernel's thread is to read it. */
  take(path: string): Prefetch | null {
    const taken = this.ahead.get(path);
    this.taken = taken?.group ?? null;
    if (taken) {
      this.ahead.delete(path);
      this.bytes -= taken.size;
    }
    this.topUp();
    if (!taken) return null;
    if (taken.prefetch.started || this.waitForWorkers) return taken.prefetch;
    taken.prefetch.cancel();
    return null;
  }

  /**
   * The nearest file after the one taken that no worker has begun and of no group of a file it
   * passes, now the kernel's thread's to read out of its turn; null when there is none (or the
   * workers are to read all).
   */
  steal(): string | null {
    if (this.waitForWorkers) return null;
    const passed = new Set([this.taken]);
    for (const [path, { prefetch, size, group }] of this.ahead) {
      if (prefetch.started || passed.has(group)) {
        passed.add(group);
        continue;
      }
      prefetch.cancel();
      this.ahead.delete(path);
      this.bytes -= size;
      this.topUp();
      return path;
    }
    return null;
  }

  /** Drops whatever was read ahead and not taken (the index stopped). */
  cancel(): void {
    for (const { prefetch } of this.ahead.values()) prefetch.cancel();
    this.ahead.clear();
    this.next = this.files.length;
  }

  private topUp(): void {
    // every worker has a file, and more while within the budget
    while (this.next < this.files.length && (this.ahead.size < this.pool.size || this.bytes < this.budget)) {
      const { path, size, place, group } = this.files[this.next++];
      this.ahead.set(path, { prefetch: this.pool.read(path, place, size), size, group });
      this.bytes += size;
    }
  }
}

/**
 * Feeds what a worker read of a file into the catalog, batch by batch as the worker posts them,
 * moving the file's tail along; after a failure the tail stands after the last batch taken, and
 * reading on from there is the caller's.
 */
export async function ingestPrefetched(prefetch: Prefetch, ingest: FileIngest, tail: FileTail): Promise<void> {
  const record = (result: TranscriptRecord | string, number: number, offset: number) => ingest.record(result, number, offset);
  for (let batch = await prefetch.next(); batch; batch = await prefetch.next()) {
    unpackRecords(batch.records, prefetch.path, prefetch.place.fsid, record);
    if (batch.state) tail.resume(batch.state);
  }
}
