import { FileTail, type LineSink, type ReadOutcome } from './tail';

// A transcript Claude Code deleted, read from Loom's copy of it (spoke/archive/): the same lines
// at the same offsets as the file had, so a session goes on from where its file was read to.

/** What of the archive reading a copy needs. */
export interface ArchiveLines {
  archivedTo(name: string): number;
  pieces(name: string, from?: number): AsyncGenerator<Buffer>;
}

export class ArchivedTail extends FileTail {
  constructor(
    path: string,
    /** the copy's name: the file's path under the projects root */
    readonly name: string,
    private readonly archive: ArchiveLines,
  ) {
    super(path);
  }

  override async read(sink: LineSink, limit = Infinity): Promise<ReadOutcome> {
    const end = Math.min(limit, this.archive.archivedTo(this.name));
    let at = this.offset + this.carryBytes;
    if (at >= end) return 'unchanged';
    for await (const piece of this.archive.pieces(this.name, at)) {
      const size = Math.min(piece.length, end - at);
      this.split(piece, size, sink);
      at += size;
      if (at >= end) break;
    }
    return 'appended';
  }
}
