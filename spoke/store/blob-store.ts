import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';

// What sleeping sessions keep on disk beside the index cache, read only when something asks: their
// usage rows (a gigabyte of transcripts holds hundreds of thousands of API messages) and their
// goals (most of what the cache would otherwise hold). Blobs are appended and never rewritten in
// place; the file is written anew, with only the blobs still referred to, when most of it is no
// longer referred to. Its first 16 bytes name it, and the index cache names the file it refers
// to: a cache beside another file is not used.

const ID_BYTES = 16;
/** Rewritten when it is at least this big and more than half of it is no longer referred to. */
const COMPACT_BYTES = 8 << 20;
/**
 * Appends wait in memory until this many bytes do, then reach the file in one write: each session
 * falling asleep appends two small blobs, and a write each was 2 % of a first index.
 */
const PENDING_BYTES = 256 << 10;

/** Where a blob is: a count of bytes from a byte offset. */
export interface StoredBlob {
  at: number;
  bytes: number;
}

/** Where blobs are appended and read back: the file beside the cache, or memory (BlobBuffer). */
export interface Blobs {
  append(bytes: Uint8Array): StoredBlob;
  /** the blob's bytes, in a buffer of their own (at offset 0 of its ArrayBuffer, so any typed array can view it) */
  read(blob: StoredBlob): Buffer;
}

export class BlobStore implements Blobs {
  /** the file's size with the pending bytes */
  private size: number;
  private readonly pending = Buffer.allocUnsafe(PENDING_BYTES);
  private pendingBytes = 0;

  private constructor(
    private readonly path: string,
    private fd: number,
    /** the name in the file's first bytes */
    public id: string,
  ) {
    this.size = fstatSync(fd).size;
  }

  /** A new, empty store at `path` (what was there is replaced). */
  static create(path: string): BlobStore {
    const fd = openSync(path, 'w+', 0o600);
    const id = randomBytes(ID_BYTES);
    writeSync(fd, id, 0, ID_BYTES, 0);
    return new BlobStore(path, fd, id.toString('hex'));
  }

  /** The store the index cache refers to, or null when the file is missing or is another one. */
  static reopen(path: string, id: string): BlobStore | null {
    let fd: number;
    try {
      fd = openSync(path, 'r+');
    } catch {
      return null;
    }
    const head = Buffer.alloc(ID_BYTES);
    if (readSync(fd, head, 0, ID_BYTES, 0) !== ID_BYTES || head.toString('hex') !== id) {
      closeSync(fd);
      return null;
    }
    return new BlobStore(path, fd, id);
  }

  /** Appends a blob; it reaches the file by the next `flush` (reads and `close` flush first). */
  append(bytes: Uint8Array): StoredBlob {
    const at = this.size;
    if (this.pendingBytes + bytes.length > PENDING_BYTES) this.flush();
    if (bytes.length > PENDING_BYTES) writeSync(this.fd, bytes, 0, bytes.length, at);
    else {
      this.pending.set(bytes, this.pendingBytes);
      this.pendingBytes += bytes.length;
    }
    this.size += bytes.length;
    return { at, bytes: bytes.length };
  }

  /** Writes the appends still in memory: before anything that refers to them is saved. */
  flush(): void {
    if (this.pendingBytes === 0) return;
    writeSync(this.fd, this.pending, 0, this.pendingBytes, this.size - this.pendingBytes);
    this.pendingBytes = 0;
  }

  /** The blob's bytes, in a buffer of their own (at offset 0 of its ArrayBuffer, so any typed array can view it). */
  read(blob: StoredBlob): Buffer {
    this.flush();
    const out = Buffer.from(new ArrayBuffer(blob.bytes));
    const got = readSync(this.fd, out, 0, out.length, blob.at);
    if (got !== out.length) throw new Error(`the file ${this.path} ends before the blob it should hold`);
    return out;
  }

  /**
   * Writes the blobs still referred to into a new file and moves every reference to it, when most
   * of the file is blobs no longer referred to (sessions that woke and slept again).
   */
  compact(refs: StoredBlob[], atLeast = COMPACT_BYTES): void {
    const live = refs.reduce((sum, r) => sum + r.bytes, 0);
    if (this.size < atLeast || live * 2 > this.size) return;
    this.flush();
    const next = BlobStore.create(`${this.path}.new`);
    let moved: StoredBlob[];
    try {
      // every blob copied before any reference moves: one that cannot be read leaves them all where they were
      moved = refs.map((ref) => next.append(this.read(ref)));
      next.flush();
    } catch (err) {
      next.close();
      rmSync(`${this.path}.new`, { force: true });
      throw err;
    }
    renameSync(`${this.path}.new`, this.path);
    for (let i = 0; i < refs.length; i++) Object.assign(refs[i], moved[i]);
    closeSync(this.fd);
    this.fd = next.fd;
    this.id = next.id;
    this.size = next.size;
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}
