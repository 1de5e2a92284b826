import type { TranscriptPlace } from './paths';
import type { PackedRecords } from './record-transfer';
import type { TailState } from './tail';

// What the index workers and the kernel's thread say to each other during the first index. A
// worker reads one whole file at a time and posts its parse results in batches, each with the
// tail state after its last line: the kernel's thread can go on from any batch if the worker dies.

export type ToIndexer = { kind: 'read'; job: number; path: string; place: Pick<TranscriptPlace, 'fsid' | 'role'> };

export type FromIndexer =
  /** started: files may be sent; `scannerProblem`: why this worker parses every line whole (LINE_SCANNER_PROBLEM) */
  | { kind: 'ready'; scannerProblem: string | null }
  /** `last`: the file is read to its end */
  | { kind: 'batch'; job: number; records: PackedRecords; state: TailState | null; last: boolean }
  /** the file could not be read (the kernel's thread reads it, and says why) */
  | { kind: 'failed'; job: number; message: string };
