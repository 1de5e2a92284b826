import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readSync, renameSync, writeSync } from 'node:fs';

// The usage rows of sleeping sessions, on disk beside the index cache: a gigabyte of transcripts
// holds hundreds of thousands of API messages, and only a usage question reads them. Rows are
// appended as sessions fall asleep and never rewritten in place; the file is written anew, with
// only the rows still referred to, when most of it is no longer referred to. Its first 16 bytes
// name it, and the index cache names the file it refers to: a cache beside another file is not used.

const ID_BYTES = 16;
/** Rewritten when it is at least this big and more than half of it is no longer referred to. */
const COMPACT_BYTES = 8 << 20;

/** Where a ledger's rows are: a count of float64 values from a byte offset. */
export interface StoredRows {
  at: number;
  values: number;
}

export class LedgerStore {
  private size: number;

  private constructor(
    private readonly path: string,
    private fd: number,
    /** the name in the file's first bytes */
    public id: string,
  ) {
    this.size = fstatSync(fd).size;
  }

  /** A new, empty store at `path` (what was there is replaced). */
  static create(path: string): LedgerStore {
    const fd = openSync(path, 'w+', 0o600);
    const id = randomBytes(ID_BYTES);
    writeSync(fd, id, 0, ID_BYTES, 0);
    return new LedgerStore(path, fd, id.toString('hex'));
  }

  /** The store the index cache refers to, or null when the file is missing or is another one. */
  static reopen(path: string, id: string): LedgerStore | null {
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
    return new LedgerStore(path, fd, id);
  }

  append(values: Float64Array): StoredRows {
    const at = this.size;
    const bytes = Buffer.from(values.buffer, values.byteOffset, values.byteLength);
    writeSync(this.fd, bytes, 0, bytes.length, at);
    this.size += bytes.length;
    return { at, values: values.length };
  }

  read(rows: StoredRows): Float64Array {
    const out = new Float64Array(rows.values);
    const bytes = Buffer.from(out.buffer);
    const got = readSync(this.fd, bytes, 0, bytes.length, rows.at);
    if (got !== bytes.length) throw new Error(`the usage file ${this.path} ends before the rows it should hold`);
    return out;
  }

  /**
   * Writes the rows still referred to into a new file and moves every reference to it, when most
   * of the file is rows no longer referred to (sessions that woke and slept again).
   */
  compact(refs: StoredRows[], atLeast = COMPACT_BYTES): void {
    const live = refs.reduce((sum, r) => sum + r.values * 8, 0);
    if (this.size < atLeast || live * 2 > this.size) return;
    const next = LedgerStore.create(`${this.path}.new`);
    for (const ref of refs) Object.assign(ref, next.append(this.read(ref)));
    renameSync(`${this.path}.new`, this.path);
    closeSync(this.fd);
    this.fd = next.fd;
    this.id = next.id;
    this.size = next.size;
  }

  close(): void {
    closeSync(this.fd);
  }
}
