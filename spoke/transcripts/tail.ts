import { closeSync, constants, fstatSync, openSync, read, readSync } from 'node:fs';
import { isScannerReadBuffer, READ_BUFFER_BYTES, scannerReadBuffer } from './line-scanner-memory';

// Reads a growing file from where it left off. Only new bytes are read; a line is delivered
// once its newline has arrived (an unfinished last line, even one that ends inside a UTF-8
// character, waits in `carry`); a file that shrank or was replaced is read again from the start.

/**
 * One complete line, handed to a sink. Its bytes live in the reader's buffer, which the next
 * chunk overwrites: they, and `text` if not read yet, are valid only during the sink's `line()`
 * call; a sink that keeps anything copies it then.
 */
export interface Line {
  /** holds the line at [start, start + length), without its newline */
  readonly bytes: Buffer;
  readonly start: number;
  /** the line decoded, on first read: only a sink that needs the text pays for it */
  readonly text: string;
  /** 1-based line number in the file */
  readonly number: number;
  /** where the line starts in the file, and its length, in bytes */
  readonly offset: number;
  readonly length: number;
}

const GONE: Buffer = Buffer.alloc(0);

class ChunkLine implements Line {
  private decoded: string | null = null;

  constructor(
    public bytes: Buffer,
    readonly start: number,
    readonly length: number,
    readonly number: number,
    readonly offset: number,
  ) {}

  get text(): string {
    if (this.decoded === null) {
      if (this.bytes === GONE) throw new Error(`line ${this.number} was read after its sink returned; copy what you keep during line()`);
      this.decoded = this.bytes.toString('utf8', this.start, this.start + this.length);
    }
    return this.decoded;
  }

  /** The buffer moves on: the line's bytes are no longer its own. */
  release(): void {
    this.bytes = GONE;
  }
}

export interface TailState {
  offset: number;
  lines: number;
  ino: number;
}

export type ReadOutcome = 'appended' | 'unchanged' | 'truncated' | 'replaced' | 'missing';

export interface LineSink {
  /** the file shrank or was replaced: everything it said before is void */
  restart(outcome: 'truncated' | 'replaced'): void;
  line(line: Line): void;
}

/** 1 MiB */
const CHUNK = READ_BUFFER_BYTES;

// Read buffers are kept for the next read: a fresh 1 MiB buffer per file costs its pages being
// mapped and unmapped again, which took as long as reading the bytes (read + split of a 256 MB
// corpus: 0.76–0.92 s with fresh buffers, 0.21–0.29 s with kept ones). They are the line
// scanner's own while it has some to give, so that it reads their lines without copying them.
const free: Buffer[] = [];
/** Buffers kept: two per reader, for a few readers at once (the index, search, live states), and the first index's prefetches (tracker.ts). */
const KEPT_BUFFERS = 16;
const takeBuffer = (): Buffer => free.pop() ?? scannerReadBuffer() ?? Buffer.allocUnsafe(CHUNK);
const giveBack = (buffer: Buffer): void => {
  // the scanner's are its memory's for good: never dropped
  if (free.length < KEPT_BUFFERS || isScannerReadBuffer(buffer)) free.push(buffer);
};
const NEWLINE = 0x0a;

/** One read into a buffer: `asked` bytes from `at`, of which `bytesRead` came (fewer only at the end of the file). */
interface Chunk {
  buffer: Buffer;
  at: number;
  asked: number;
  bytesRead: number;
}

/**
 * A file opened for one read(): its descriptor, size and inode, and the first chunk when it was
 * read ahead. Opened, stat'ed and closed on the thread itself, read on libuv's: a file's metadata
 * takes microseconds (the listing stat'ed it just before), while each of fs/promises' operations
 * cost the thread about 40 µs of its own (open, stat and close: a third of a second on 2,160
 * files), and chunks read on libuv's threads keep coming from disk while the thread parses.
 */
interface Opened {
  fd: number;
  size: number;
  ino: number;
  first: Chunk | null;
}

/** A read into `buffer`; one that fails gives the buffer back, so that its caller holds none. */
function readChunk(fd: number, buffer: Buffer, at: number, limit: number, onThisThread: boolean): Promise<Chunk> | Chunk {
  const asked = Math.max(0, Math.min(buffer.length, limit - at));
  if (onThisThread) {
    try {
      return { buffer, at, asked, bytesRead: readSync(fd, buffer, 0, asked, at) };
    } catch (err) {
      giveBack(buffer);
      // failed as a read on libuv's would: once the chunk before has been split
      return Promise.reject(err);
    }
  }
  return new Promise((resolve, reject) => {
    read(fd, buffer, 0, asked, at, (err, bytesRead) => {
      if (!err) return resolve({ buffer, at, asked, bytesRead });
      giveBack(buffer);
      reject(err);
    });
  });
}

/**
 * Opened without waiting for a writer: a FIFO named like a transcript would otherwise hold the
 * thread (regular files ignore the flag; Windows has none).
 */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A close that fails (EIO on a network filesystem) loses nothing that was read: it is not the reader's error. */
function close(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // the descriptor is released either way
  }
}

/** Done with a file (no read is in flight on it: the descriptor's number is free for the next open). */
function release(opened: Opened | null): void {
  if (!opened) return;
  if (opened.first) giveBack(opened.first.buffer);
  opened.first = null;
  close(opened.fd);
}

export class FileTail {
  /** bytes consumed up to the end of the last complete line */
  offset = 0;
  lines = 0;
  protected ino: number | null = null;
  /** emptied, never replaced: a fresh empty array would start out holding numbers to V8, and each line pushed into it threw `split` out of its optimized code */
  private readonly carry: Buffer[] = [];
  protected carryBytes = 0;
  /** the next read, begun ahead of its turn (prefetch) */
  private ahead: Promise<Opened | null> | null = null;

  constructor(readonly path: string) {}

  /** Where this file was left last time (from the index cache): reading goes on from there. */
  resume(state: TailState): void {
    this.offset = state.offset;
    this.lines = state.lines;
    this.ino = state.ino;
  }

  state(): TailState | null {
    return this.ino === null ? null : { offset: this.offset, lines: this.lines, ino: this.ino };
  }

  /**
   * Opens the file and reads its next chunk now, for the next read() to take: the first index
   * starts on the files after this one while it parses this one, so it never waits for a read.
   */
  prefetch(): void {
    if (this.ahead) return;
    const ahead = this.open(true);
    ahead.catch(() => {}); // the failure is read()'s to report
    this.ahead = ahead;
  }

  /** Lets go of a prefetch no read() took (the index stopped before this file's turn). */
  dropPrefetch(): void {
    const ahead = this.ahead;
    this.ahead = null;
    void ahead?.then(release, () => {});
  }

  /**
   * Reads everything new, handing each complete line to the sink, in order. With `limit`, stops
   * at that byte offset (a line boundary the file was read to before). A read that takes a
   * prefetch may stop where the file ended then: what was written since is the next read's.
   *
   * `onThisThread` reads each chunk synchronously, for a read nothing else waits on while every
   * core is busy (the first index with workers): a read on libuv's threads wakes one of them,
   * which then takes a core from a thread that was parsing. Measured on two cores, that wait cost
   * an index worker a third of its time, and the kernel's thread 8 % of its; a read from the page
   * cache takes far less.
   */
  async read(sink: LineSink, limit = Infinity, onThisThread = false): Promise<ReadOutcome> {
    const ahead = this.ahead;
    this.ahead = null;
    const opened = await (ahead ?? this.open(false));
    if (!opened) return 'missing';
    try {
      let outcome: ReadOutcome = 'appended';
      if (this.ino !== null && opened.ino !== this.ino) outcome = 'replaced';
      else if (opened.size < this.offset + this.carryBytes) outcome = 'truncated';
      if (outcome === 'truncated' || outcome === 'replaced') {
        this.restart();
        sink.restart(outcome);
      }
      this.ino = opened.ino;
      const before = this.offset + this.carryBytes;
      await this.consume(opened, sink, limit, onThisThread);
      return outcome === 'appended' && this.offset + this.carryBytes === before ? 'unchanged' : outcome;
    } finally {
      release(opened);
    }
  }

  /** The file opened and its size known; with `readFirst`, its next chunk read too. Null when it is missing. */
  private async open(readFirst: boolean): Promise<Opened | null> {
    let fd: number;
    try {
      fd = openSync(this.path, OPEN_FLAGS);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    try {
      const stats = fstatSync(fd);
      if (!stats.isFile()) throw new Error('not a regular file');
      const opened: Opened = { fd, size: stats.size, ino: stats.ino, first: null };
      if (readFirst) opened.first = await readChunk(fd, takeBuffer(), this.offset + this.carryBytes, Infinity, false);
      return opened;
    } catch (err) {
      close(fd);
      throw err;
    }
  }

  private restart(): void {
    this.offset = 0;
    this.lines = 0;
    this.carry.length = 0;
    this.carryBytes = 0;
  }

  private async consume(opened: Opened, sink: LineSink, limit: number, onThisThread: boolean) {
    let position = this.offset + this.carryBytes;
    const first = opened.first;
    opened.first = null;
    let pending: Promise<Chunk> | Chunk;
    if (first?.at === position) pending = first;
    else {
      if (first) giveBack(first.buffer);
      pending = readChunk(opened.fd, takeBuffer(), position, limit, onThisThread);
    }
    // Two buffers: the next chunk is read from disk while this one is split and parsed. Whatever
    // ends the read (the end, a sink's error, a failed read), both go back: a buffer in the
    // scanner's memory is one of a few, and one lost is lost for good.
    let current: Buffer | null = null;
    let spare: Buffer | null = null;
    try {
      for (;;) {
        const chunk = await pending;
        current = chunk.buffer;
        const size = Math.min(chunk.bytesRead, limit - position);
        position += size;
        // a short read is the end of the file: asking again would only wait for nothing
        const more = size > 0 && chunk.bytesRead === chunk.asked && position < limit;
        if (more) pending = readChunk(opened.fd, spare ?? takeBuffer(), position, limit, onThisThread);
        else if (spare) giveBack(spare);
        spare = null;
        try {
          if (size > 0) this.split(current, size, sink);
        } catch (err) {
          // never leave a read in flight on a descriptor about to close
          if (more) {
            // (a read that failed gave its buffer back)
            const next = await Promise.resolve(pending).catch(() => null);
            if (next) giveBack(next.buffer);
          }
          throw err;
        }
        if (!more) return;
        spare = current;
        current = null;
      }
    } finally {
      if (current) giveBack(current);
      if (spare) giveBack(spare);
    }
  }

  protected split(buffer: Buffer, size: number, sink: LineSink): void {
    let start = 0;
    let nl = buffer.indexOf(NEWLINE, 0);
    while (nl !== -1 && nl < size) {
      let line: ChunkLine;
      this.lines++;
      if (this.carryBytes > 0) {
        this.carry.push(buffer.subarray(start, nl));
        const whole = Buffer.concat(this.carry);
        this.carry.length = 0;
        this.carryBytes = 0;
        line = new ChunkLine(whole, 0, whole.length, this.lines, this.offset);
      } else {
        line = new ChunkLine(buffer, start, nl - start, this.lines, this.offset);
      }
      sink.line(line);
      line.release();
      this.offset += line.length + 1;
      start = nl + 1;
      nl = buffer.indexOf(NEWLINE, start);
    }
    if (start < size) {
      // Copy: the read buffer is reused for the next chunk.
      this.carry.push(Buffer.from(buffer.subarray(start, size)));
      this.carryBytes += size - start;
    }
  }
}
