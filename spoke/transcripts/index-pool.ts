import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers/start-worker';
import type { FromIndexer, ToIndexer } from './index-messages';
import { LINE_SCANNER_PROBLEM } from './line-scanner-memory';
import type { TranscriptPlace } from './paths';
import type { PackedRecords } from './record-transfer';
import type { TailState } from './tail';

// The index workers of the first index (index-worker.ts): files are handed out in the order the
// kernel's thread will take them in, each to the next worker with room, and what a worker parsed
// waits, packed, until the kernel's thread comes to that file. A worker that dies fails only the
// files it was given, which the kernel's thread reads (on from the worker's last batch); the
// others go on.

/**
 * A worker's heap: as large as the kernel thread's own. A worker holds one line and what it parses
 * to at a time, so it grows no larger than the kernel thread would reading alone; but V8 cannot
 * stop a worker for one allocation past its cap (a 64 MB line under a 40 MB cap took the whole
 * process down), so any line the kernel thread could read, a worker must be able to read too.
 */
const INDEX_WORKER_HEAP_MB = Math.ceil(getHeapStatistics().heap_size_limit / 1024 / 1024);
/** room for new objects: a batch's records die young here, where 4 MB promoted them (and 40 MB more RSS per worker, measured) */
const INDEX_WORKER_YOUNG_MB = 32;
/**
 * A worker holds the file it reads and the next, and more while they are small: handed its next
 * file only once done with one, a worker waited for the kernel's thread to come back to its event
 * loop (a third of the worker's time on two cores, measured), and small files go by faster than that.
 */
const FILES_PER_WORKER = 2;
const BYTES_PER_WORKER = 4 << 20;
const wantsMore = (slot: Slot): boolean =>
  slot.reading.length < FILES_PER_WORKER || slot.reading.reduce((bytes, file) => bytes + file.size, 0) < BYTES_PER_WORKER;

/** Results of one batch of a file's lines, and where the file's tail stands after them. */
export interface ReadBatch {
  records: PackedRecords;
  state: TailState | null;
}

/** Why a worker did not read a file to its end. */
export interface ReadFailure {
  message: string;
  /** the worker died (else the file could not be read, which the kernel's thread will also find) */
  died: boolean;
}

/** One file read (or to be read) by a worker: its batches, taken in order. */
export class Prefetch {
  /** a worker has the file: its results will come */
  started = false;
  failure: ReadFailure | null = null;
  private readonly batches: ReadBatch[] = [];
  private ended = false;
  private cancelled = false;
  private wake: (() => void) | null = null;

  constructor(
    readonly job: number,
    readonly path: string,
    readonly place: Pick<TranscriptPlace, 'fsid' | 'role'>,
    readonly size: number,
  ) {}

  /** The next batch, once the worker has posted it; null when the file is read (or failed: see `failure`). */
  async next(): Promise<ReadBatch | null> {
    while (this.batches.length === 0 && !this.ended) await new Promise<void>((resolve) => (this.wake = resolve));
    return this.batches.shift() ?? null;
  }

  /** Nobody will take these results: they are dropped as they come. */
  cancel(): void {
    this.cancelled = true;
    this.batches.length = 0;
  }

  get wanted(): boolean {
    return !this.cancelled;
  }

  /** a batch is waiting (or the file is read): taking it now would not wait for the worker */
  get ready(): boolean {
    return this.batches.length > 0 || this.ended;
  }

  arrived(batch: ReadBatch, last: boolean): void {
    if (!this.cancelled) this.batches.push(batch);
    if (last) this.ended = true;
    this.poke();
  }

  fail(failure: ReadFailure): void {
    this.failure = failure;
    this.ended = true;
    this.poke();
  }

  private poke(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

interface Slot {
  worker: Worker;
  /** started (until then, files wait in the queue, where the kernel's thread may take them) */
  ready: boolean;
  /** the files given to it, in the order it reads them */
  reading: Prefetch[];
  /** why it stopped, from its error event */
  error: string | null;
}

export class IndexPool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Prefetch[] = [];
  private jobs = 0;
  private closing = false;
  /** a worker's LINE_SCANNER_PROBLEM is logged once, not once per worker */
  private saidScannerProblem = false;

  constructor(
    readonly size: number,
    private readonly log: (message: string) => void,
    private readonly heapMb = INDEX_WORKER_HEAP_MB,
  ) {
    for (let i = 0; i < size; i++) this.slots.add(this.start());
  }

  /** Queues a file; a worker reads it when one is free. */
  read(path: string, place: Pick<TranscriptPlace, 'fsid' | 'role'>, size: number): Prefetch {
    const prefetch = new Prefetch(++this.jobs, path, place, size);
    if (this.slots.size === 0) prefetch.fail({ message: 'no index worker is running', died: true });
    else {
      this.queue.push(prefetch);
      this.dispatch();
    }
    return prefetch;
  }

  /** Stops every worker; files not read by then are the kernel's thread's. */
  async close(): Promise<void> {
    this.closing = true;
    const ended = [...this.slots].map((slot) => slot.worker.terminate());
    await Promise.all(ended);
  }

  private start(): Slot {
    const worker = startWorker(new URL('./index-worker.ts', import.meta.url), this.heapMb, {}, INDEX_WORKER_YOUNG_MB);
    const slot: Slot = { worker, ready: false, reading: [], error: null };
    worker.on('message', (message: FromIndexer) => this.received(slot, message));
    worker.on('error', (err) => (slot.error = err.message));
    worker.on('exit', () => this.exited(slot));
    return slot;
  }

  private received(slot: Slot, message: FromIndexer): void {
    if (message.kind === 'ready') {
      slot.ready = true;
      // a worker's scanner can fail where the kernel's thread's did not (each reserves its own memory)
      if (message.scannerProblem !== null && message.scannerProblem !== LINE_SCANNER_PROBLEM && !this.saidScannerProblem) {
        this.saidScannerProblem = true;
        this.log(`in the index workers, ${message.scannerProblem}`);
      }
      return this.dispatch();
    }
    const prefetch = slot.reading[0];
    if (!prefetch || prefetch.job !== message.job) return;
    if (message.kind === 'failed') {
      prefetch.fail({ message: message.message, died: false });
    } else {
      prefetch.arrived({ records: message.records, state: message.state }, message.last);
      if (!message.last) return;
    }
    slot.reading.shift();
    this.dispatch();
  }

  private exited(slot: Slot): void {
    this.slots.delete(slot);
    const lost = slot.reading.splice(0);
    const why = this.closing ? 'the index workers were stopped' : (slot.error ?? 'it exited');
    if (!this.closing) {
      this.log(
        lost.length > 0
          ? `an index worker stopped (${why}) while reading ${lost[0].path}; the main thread reads that file`
          : `an index worker stopped (${why})`,
      );
    }
    for (const prefetch of lost) prefetch.fail({ message: why, died: true });
    if (this.slots.size > 0) return;
    for (const waiting of this.queue.splice(0)) waiting.fail({ message: 'no index worker is running', died: true });
  }

  private dispatch(): void {
    // a file at a time to each worker that wants one, round after round: each has one before any has more
    for (let given = true; given; ) {
      given = false;
      for (const slot of this.slots) {
        if (!slot.ready || !wantsMore(slot)) continue;
        let next = this.queue.shift();
        while (next && !next.wanted) next = this.queue.shift();
        if (!next) return;
        this.give(slot, next);
        given = true;
      }
    }
  }

  private give(slot: Slot, next: Prefetch): void {
    slot.reading.push(next);
    next.started = true;
    slot.worker.postMessage({ kind: 'read', job: next.job, path: next.path, place: next.place } satisfies ToIndexer);
  }
}

/**
 * Index workers unless told otherwise: none on one core; else one per core left after the
 * kernel's thread, at least one and at most three. On two cores the one worker and the kernel's
 * thread share them: the kernel's thread reads a file itself whenever the worker is still on the
 * one whose turn it is, so neither waits (a cold index 25–30 % sooner, measured). Past three, the
 * kernel's thread, which unpacks and ingests every record, takes about half of what it took
 * reading alone, and two or three workers parse as fast as it takes (docs/performance.md, Index
 * workers).
 */
export function defaultIndexWorkers(cores = availableParallelism()): number {
  return cores > 1 ? Math.min(cores - 1, 3) : 0;
}
