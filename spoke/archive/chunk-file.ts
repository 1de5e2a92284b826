import { closeSync, fsyncSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeSync } from 'node:fs';
import { type FileHandle, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { type ChunkRow, decodeHeader, encodeHeader, encodeRow, ROW_BYTES, rowAt, rowHolding, soundRows, type TableHeader } from './chunk-table';
import { compressChunk, decompressChunk } from './codec';

// One transcript's copy, in three files named by the hash of its name:
//   <id>.chunks        compressed chunks, one after another, never rewritten
//   <id>.table         header + one row per chunk (chunk-table.ts), appended after its chunk
//   <id>-<start>.tail  the raw bytes after the last chunk, from raw offset <start>, until
//                      there are enough of them for a whole chunk (or the file goes quiet)
// A chunk reaches disk (fsync) before its row, and its row before the tail it replaces goes, so
// a crash at any point leaves either the old tail or the new row, and the loader cuts away only
// what lies past the last sound row.

export interface ChunkCache {
  get(key: string): Buffer | undefined;
  set(key: string, raw: Buffer): void;
}

/** The files of the copy with this id, by kind: what `load` is handed after one listing of the dir. */
export interface CopyFiles {
  table: boolean;
  chunks: boolean;
  /** the raw start of every tail file found */
  tails: number[];
}

const FILE_MODE = 0o600;
let copiesMade = 0;

export class TranscriptCopy {
  /** tells one copy's chunks from those of a copy started again under the same name, in the chunk cache */
  private readonly serial = ++copiesMade;

  private constructor(
    readonly header: TableHeader,
    private readonly dir: string,
    private readonly id: string,
    private readonly headerBytes: number,
    private rows: Buffer,
    private chunkedRaw: number,
    private chunkedBytes: number,
    private tailBytes: number,
  ) {}

  /** Starts an empty copy: the table header is on disk (fsync) before this returns. */
  static create(dir: string, id: string, header: TableHeader): TranscriptCopy {
    const head = encodeHeader(header);
    writeDurablySync(join(dir, `${id}.table`), head);
    writeDurablySync(join(dir, `${id}.chunks`), Buffer.alloc(0));
    rmSync(join(dir, `${id}-0.tail`), { force: true });
    return new TranscriptCopy(header, dir, id, head.length, Buffer.alloc(0), 0, 0, 0);
  }

  /**
   * The copy as a crash may have left it: rows past the last sound one, chunk bytes past the last
   * row, and tails the rows have overtaken are cut away (each cut logged). Null, with its files
   * removed, when the table has no readable header.
   */
  static load(dir: string, id: string, found: CopyFiles, log: (message: string) => void): TranscriptCopy | null {
    const tablePath = join(dir, `${id}.table`);
    const table = readFileSync(tablePath);
    const decoded = decodeHeader(table);
    if (decoded === null) {
      log(`archive: ${tablePath} has no readable header, so the copy it indexed is dropped`);
      removeFiles(dir, id, found.tails);
      return null;
    }
    const { header, bytes: headerBytes } = decoded;
    const chunksPath = join(dir, `${id}.chunks`);
    const chunkFileBytes = found.chunks ? statSync(chunksPath).size : 0;
    const allRows = table.subarray(headerBytes);
    const count = soundRows(allRows, chunkFileBytes);
    if (count * ROW_BYTES < allRows.length) {
      truncateSync(tablePath, headerBytes + count * ROW_BYTES);
      log(`archive: the offset table of ${header.name} ended in ${allRows.length - count * ROW_BYTES} bytes that were not a sound row; they were cut away`);
    }
    const rows = Buffer.from(allRows.subarray(0, count * ROW_BYTES));
    const last = count > 0 ? rowAt(rows, count - 1) : null;
    const chunkedRaw = last ? last.rawStart + last.rawLength : 0;
    const chunkedBytes = last ? last.compStart + last.compLength : 0;
    if (!found.chunks) writeDurablySync(chunksPath, Buffer.alloc(0));
    else if (chunkFileBytes > chunkedBytes) {
      truncateSync(chunksPath, chunkedBytes);
      log(`archive: the chunk file of ${header.name} ended in ${chunkFileBytes - chunkedBytes} bytes no row points to; they were cut away`);
    }
    let tailBytes = 0;
    for (const start of found.tails) {
      const path = join(dir, `${id}-${start}.tail`);
      if (start === chunkedRaw) tailBytes = statSync(path).size;
      else {
        // a tail behind the rows was folded into a chunk before a crash; one ahead of them lost its chunks
        if (start > chunkedRaw) log(`archive: the last ${statSync(path).size} bytes held of ${header.name} follow chunks that were lost, so they are dropped`);
        rmSync(path, { force: true });
      }
    }
    return new TranscriptCopy(header, dir, id, headerBytes, rows, chunkedRaw, chunkedBytes, tailBytes);
  }

  /** Raw bytes of the transcript held: [0, rawBytes). */
  get rawBytes(): number {
    return this.chunkedRaw + this.tailBytes;
  }

  /** Bytes on disk: table, chunks and tail. */
  get storedBytes(): number {
    return this.headerBytes + this.rows.length + this.chunkedBytes + this.tailBytes;
  }

  get tailLength(): number {
    return this.tailBytes;
  }

  get chunkCount(): number {
    return this.rows.length / ROW_BYTES;
  }

  /** Appends `raw`, the tail's bytes first when there is a tail, as one compressed chunk. */
  async appendChunk(raw: Buffer): Promise<void> {
    const compressed = await compressChunk(raw);
    const row = encodeRow({
      rawStart: this.chunkedRaw,
      rawLength: raw.length,
      compStart: this.chunkedBytes,
      compLength: compressed.length,
      rawCrc: crc32(raw),
    });
    await writeAt(join(this.dir, `${this.id}.chunks`), compressed, this.chunkedBytes, true);
    await writeAt(join(this.dir, `${this.id}.table`), row, this.headerBytes + this.rows.length, true);
    const folded = this.tailBytes > 0 ? this.tailPath() : null;
    this.rows = Buffer.concat([this.rows, row]);
    this.chunkedRaw += raw.length;
    this.chunkedBytes += compressed.length;
    this.tailBytes = 0;
    if (folded) await rm(folded, { force: true });
  }

  /** Appends raw bytes to the tail. Not fsync'd: the live transcript still holds them. */
  async appendTail(bytes: Buffer): Promise<void> {
    await writeAt(this.tailPath(), bytes, this.tailBytes, false);
    this.tailBytes += bytes.length;
  }

  async readTail(): Promise<Buffer> {
    return readExactly(this.tailPath(), 0, this.tailBytes, this.header.name);
  }

  /** Raw bytes [offset, offset + length), which the caller has checked lie inside [0, rawBytes). */
  async read(offset: number, length: number, cache: ChunkCache): Promise<Buffer> {
    const out = Buffer.alloc(length);
    const end = offset + length;
    let at = offset;
    while (at < end && at < this.chunkedRaw) {
      const index = rowHolding(this.rows, this.chunkCount, at);
      const row = rowAt(this.rows, index);
      const raw = await this.chunk(index, row, cache);
      const from = at - row.rawStart;
      const n = Math.min(row.rawLength - from, end - at);
      raw.copy(out, at - offset, from, from + n);
      at += n;
    }
    if (at < end) (await readExactly(this.tailPath(), at - this.chunkedRaw, end - at, this.header.name)).copy(out, at - offset);
    return out;
  }

  /** Removes the copy's files, the table first: chunks or a tail without a table are leftovers the next open removes. */
  remove(): void {
    removeFiles(this.dir, this.id, this.tailBytes > 0 ? [this.chunkedRaw] : []);
  }

  private async chunk(index: number, row: ChunkRow, cache: ChunkCache): Promise<Buffer> {
    const key = `${this.serial}:${index}`;
    const cached = cache.get(key);
    if (cached) return cached;
    const compressed = await readExactly(join(this.dir, `${this.id}.chunks`), row.compStart, row.compLength, this.header.name);
    const raw = await decompressChunk(compressed).catch(() => null);
    if (raw === null || raw.length !== row.rawLength || crc32(raw) !== row.rawCrc) {
      throw new Error(`chunk ${index + 1} of the archived copy of ${this.header.name} is damaged and cannot be read`);
    }
    cache.set(key, raw);
    return raw;
  }

  private tailPath(): string {
    return join(this.dir, `${this.id}-${this.chunkedRaw}.tail`);
  }
}

function removeFiles(dir: string, id: string, tails: number[]): void {
  rmSync(join(dir, `${id}.table`), { force: true });
  rmSync(join(dir, `${id}.chunks`), { force: true });
  for (const start of tails) rmSync(join(dir, `${id}-${start}.tail`), { force: true });
}

function writeDurablySync(path: string, bytes: Buffer): void {
  const fd = openSync(path, 'w', FILE_MODE);
  try {
    writeSync(fd, bytes);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes `bytes` at `position` and cuts the file there, so a failed earlier write never leaves bytes between two records. */
async function writeAt(path: string, bytes: Buffer, position: number, durable: boolean): Promise<void> {
  const handle = await open(path, position === 0 ? 'w' : 'r+', FILE_MODE);
  try {
    await handle.write(bytes, 0, bytes.length, position);
    await handle.truncate(position + bytes.length);
    if (durable) await handle.sync();
  } catch (err) {
    await handle.truncate(position).catch(() => {});
    throw err;
  } finally {
    await handle.close();
  }
}

async function readExactly(path: string, position: number, length: number, name: string): Promise<Buffer> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch {
    throw new Error(`the archived copy of ${name} is missing a file and cannot be read`);
  }
  try {
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, position);
    if (bytesRead < length) throw new Error(`the archived copy of ${name} is shorter than its table says`);
    return buffer;
  } finally {
    await handle.close();
  }
}
