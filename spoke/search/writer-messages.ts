// What the search index's writer thread and the kernel say to each other. One catch-up runs at a
// time; a file gone from disk is read from Loom's copy, whose pieces the kernel hands over one at
// a time (the archive lives on the kernel's thread).

/** Loom's copy of a file: its archive name and how far it is copied. */
export interface CopyRef {
  name: string;
  archivedTo: number;
}

export type ToWriter = { kind: 'catchUp'; path: string; copy: CopyRef | null } | { kind: 'piece'; bytes: Uint8Array | null } | { kind: 'close' };

export type FromWriter =
  | { kind: 'caughtUp'; read: number }
  | { kind: 'failed'; message: string }
  /** the first piece of a copy from this offset… */
  | { kind: 'openPieces'; name: string; from: number }
  /** …and each next one; `piece` with null bytes ends them */
  | { kind: 'nextPiece' }
  | { kind: 'log'; message: string };
