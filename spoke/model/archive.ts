// What `kernel.archive` and `loom status` say about Loom's copy of the transcripts (spoke/archive/).

/** What the cap has dropped since the archive began. */
export interface DroppedCounts {
  files: number;
  bytes: number;
  /** of those, copies whose transcript Claude Code had already deleted */
  archiveOnly: number;
}

export interface ArchiveStatus {
  files: number;
  rawBytes: number;
  storedBytes: number;
  capBytes: number | null;
  /** copies held whose transcript Claude Code has deleted: the archive is all that is left of them */
  archiveOnly: number;
  dropped: DroppedCounts;
}
