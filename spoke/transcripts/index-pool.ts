import { availableParallelism } from 'node:os';
import { getHeapStatistics } from 'node:v8';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../workers/start-worker';
import type { FromIndexer, ToIndexer } from './index-messages';
import { LINE_SCANNER_PROBLEM } from './line-scanner-memory';
import type { IndexedProject, ProjectWork } from './project-index';

// The index workers of the first index (index-worker.ts). Portions of projects (index-portions.ts)
// are shared in the order the kernel's thread will come to them; workers take them from the last
// (the kernel's thread reads from the first), and the kernel's thread claims each that no worker
// has begun when it comes to it. A worker that dies fails only the portions it was given, which
// the kernel's thread reads; the others go on.

/**
 * A worker's heap: as large as the kernel thread's own. A worker holds one portion's sessions as
 * the kernel's thread would, and one line and what it parses to at a time; but V8 cannot stop a
 * worker for one allocation past its cap (a 64 MB line under a 40 MB cap took the whole process
 * down), so a worker must be able to hold what the kernel's thread can (and leaves it a line
 * longer than HANDOVER_BYTES).
 */
const INDEX_WORKER_HEAP_MB = Math.ceil(getHeapStatistics().heap_size_limit / 1024 / 1024);
/** room for new objects: a line's records die young here, where 4 MB promoted them (and 40 MB more RSS per worker, measured) */
const INDEX_WORKER_YOUNG_MB = 32;
/**
 * A worker holds the portions it was given while they come to less than this, so that it never
 * waits for the kernel's thread to come back to its event loop and hand it the next small one: at
 * 4 MB a worker was idle 7 % of its time on real transcripts (projects of 1.5 MB on average), at
 * 16 MB not measurably. But what a worker holds is no longer the kernel thread's to claim, and
 * the two end together only as closely as what it holds: near the end it holds less (`wantsMore`).
 */
const BYTES_PER_WORKER = 16 << 20;
const bytesOf = (jobs: ProjectJob[]): number => jobs.reduce((bytes, job) => bytes + job.bytes, 0);

/** Why a worker did not index a portion. */
export interface IndexFailure {
  message: string;
  /** the worker died (else the portion could not be indexed there: a file changed, a line too long) */
  died: boolean;
}

export type JobOutcome = { indexed: IndexedProject; failure?: undefined } | { failure: IndexFailure; indexed?: undefined };

/** A portion of a project shared with the workers: indexed by one of them, or claimed by the kernel's thread. */
export class ProjectJob {
  /** a worker has it: its outcome will come */
  started = false;
  /** the kernel's thread reads it (no worker had begun it) */
  claimed = false;
  /** its outcome came (a worker's, or the pool's when no worker is left): too late to claim */
  settled = false;
  readonly outcome: Promise<JobOutcome>;
  private settle!: (outcome: JobOutcome) => void;

  constructor(
    readonly job: number,
    readonly work: ProjectWork,
    /** transcript bytes in its files */
    readonly bytes: number,
  ) {
    this.outcome = new Promise((resolve) => (this.settle = resolve));
  }

  finish(outcome: JobOutcome): void {
    this.settled = true;
    this.settle(outcome);
  }
}

interface Slot {
  worker: Worker;
  /** started (until then, portions wait in the queue, where the kernel's thread may claim them) */
  ready: boolean;
  /** the portions given to it, in the order it indexes them */
  given: ProjectJob[];
  /** why it stopped, from its error event */
  error: string | null;
}

export class IndexPool {
  private readonly slots = new Set<Slot>();
  /** in the kernel thread's order: workers take from the end */
  private readonly queue: ProjectJob[] = [];
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

  /** Shares a portion, after those shared before it in the kernel thread's order. */
  share(work: ProjectWork, bytes: number): ProjectJob {
    const job = new ProjectJob(++this.jobs, work, bytes);
    if (this.slots.size === 0) job.finish({ failure: { message: 'no index worker is running', died: true } });
    else {
      this.queue.push(job);
      this.dispatch();
    }
    return job;
  }

  /** The kernel's thread takes a portion to read itself: false when a worker has begun it. */
  claim(job: ProjectJob): boolean {
    if (job.started || job.settled) return false;
    job.claimed = true;
    const at = this.queue.indexOf(job);
    if (at >= 0) this.queue.splice(at, 1);
    return true;
  }

  /** Stops every worker; what they had not indexed by then is the kernel's thread's. */
  async close(): Promise<void> {
    this.closing = true;
    const ended = [...this.slots].map((slot) => slot.worker.terminate());
    await Promise.all(ended);
  }

  private start(): Slot {
    const worker = startWorker(new URL('./index-worker.ts', import.meta.url), this.heapMb, {}, INDEX_WORKER_YOUNG_MB);
    const slot: Slot = { worker, ready: false, given: [], error: null };
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
    const job = slot.given[0];
    if (!job || job.job !== message.job) return;
    slot.given.shift();
    job.finish(message.kind === 'indexed' ? { indexed: message.project } : { failure: { message: message.message, died: false } });
    this.dispatch();
  }

  private exited(slot: Slot): void {
    this.slots.delete(slot);
    const lost = slot.given.splice(0);
    const why = this.closing ? 'the index workers were stopped' : (slot.error ?? 'it exited');
    if (!this.closing) {
      this.log(
        lost.length > 0
          ? `an index worker stopped (${why}) while indexing the project ${lost[0].work.project}; the main thread reads it`
          : `an index worker stopped (${why})`,
      );
    }
    for (const job of lost) job.finish({ failure: { message: why, died: true } });
    if (this.slots.size > 0) return;
    for (const waiting of this.queue.splice(0)) waiting.finish({ failure: { message: 'no index worker is running', died: true } });
  }

  /**
   * Whether a worker is given another portion now: one with none always is; else while it holds
   * less than BYTES_PER_WORKER and less than its share of what is left in the queue (the kernel's
   * thread being one more), so that near the end it holds no more than the kernel's thread has
   * left to read, and the two end together.
   */
  private wantsMore(slot: Slot): boolean {
    const held = bytesOf(slot.given);
    return held === 0 || held < Math.min(BYTES_PER_WORKER, bytesOf(this.queue) / (this.slots.size + 1));
  }

  private dispatch(): void {
    // a portion at a time to each worker that wants one, round after round: each has one before any has more
    for (let given = true; given; ) {
      given = false;
      for (const slot of this.slots) {
        if (!slot.ready || !this.wantsMore(slot)) continue;
        const next = this.queue.pop();
        if (!next) return;
        slot.given.push(next);
        next.started = true;
        slot.worker.postMessage({ kind: 'project', job: next.job, work: next.work } satisfies ToIndexer);
        given = true;
      }
    }
  }
}

/**
 * Index workers unless told otherwise: none on one core; else one per core left after the
 * kernel's thread, at most two. Each indexes portions of projects while the kernel's thread indexes
 * others, so more would still go faster on more cores; but each costs 50–65 MB of peak RSS (a
 * 1 GB cold index peaked at 185–191 MB with one, 236–256 MB with two, 290–321 MB with three,
 * measured), and two keep it within 300 MB (docs/performance.md, Index workers).
 */
export function defaultIndexWorkers(cores = availableParallelism()): number {
  return cores > 1 ? Math.min(cores - 1, 2) : 0;
}
