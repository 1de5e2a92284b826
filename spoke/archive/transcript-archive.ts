import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArchiveStatus, DroppedCounts } from '../model/archive';
import { CATALOG_FORMAT, type CatalogEntry, fileIdFor, type Head, noneDropped, readCatalog, writeCatalog } from './catalog';
import { RecentChunks } from './chunk-cache';
import { type CopyFiles, TranscriptCopy } from './chunk-file';
import { KeyedQueue } from './keyed-queue';

// Loom's copy of every transcript it has indexed, so a session stays browsable after Claude Code
// deletes its file (cleanupPeriodDays). The copy is the transcript's bytes, compressed in chunks
// that each decompress alone, read back by byte range; chunks are appended, never rewritten.
// Layout, codec and crash rules: chunk-file.ts, chunk-table.ts, docs/architecture.md.

export interface ArchiveOptions {
  /** `<stateDir>/archive`, created mode 700 */
  dir: string;
  /** bytes on disk kept at most; null: no cap */
  capBytes: number | null;
  /** one sentence per problem */
  log(message: string): void;
  /** whether the transcript still exists where Claude Code keeps it (default: the file it was last copied from exists) */
  isLive?(name: string): boolean;
  /** raw bytes per chunk (default 256 KiB) */
  chunkBytes?: number;
  /** a tail not written to for this long is compressed as a last, shorter chunk (default one hour) */
  quietMs?: number;
  /** the clock, ms since the epoch (tests) */
  now?(): number;
}

export interface ArchivedFile {
  name: string;
  /** the live file it was last copied from */
  path: string;
  rawBytes: number;
  /** bytes on disk: chunks, offset table and the uncompressed tail */
  storedBytes: number;
  /** ms since the epoch */
  copiedAt: number;
}

interface Held {
  copy: TranscriptCopy;
  path: string;
  /** hash of the copy's first bytes (up to HEAD_BYTES); null until known after a catalog rebuild */
  head: Head | null;
  copiedAt: number;
}

export const CHUNK_BYTES = 256 * 1024;
/** how much of a file's start must match its copy for the file to count as the same transcript */
const HEAD_BYTES = 4096;
const QUIET_MS = 60 * 60 * 1000;
/** how often quiet tails are compressed and the catalog saved */
const SETTLE_EVERY_MS = 60 * 1000;
const MAX_NAME = 4096;
/** read buffers kept for the next copies: the copy pass copies one file at a time, live files a few at once */
const KEPT_READ_BUFFERS = 4;

export class TranscriptArchive {
  private readonly held = new Map<string, Held>();
  private readonly queue = new KeyedQueue();
  private readonly cache = new RecentChunks();
  private readonly chunkBytes: number;
  /** read buffers of a chunk's size given back by finished copies, KEPT_READ_BUFFERS at most */
  private readonly readBuffers: Buffer[] = [];
  private readonly quietMs: number;
  private readonly now: () => number;
  private dropped: DroppedCounts = noneDropped();
  /** catalog facts changed since it was last written */
  private dirty = false;
  private capping: Promise<void> = Promise.resolve();
  private closed = false;
  private readonly timer: NodeJS.Timeout;

  private constructor(private readonly options: ArchiveOptions) {
    this.chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
    this.quietMs = options.quietMs ?? QUIET_MS;
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => void this.settle(), SETTLE_EVERY_MS);
    this.timer.unref();
  }

  /** Opens the archive in `dir`, repairing what a crash left half-written (each repair logged). */
  static open(options: ArchiveOptions): TranscriptArchive {
    const archive = new TranscriptArchive(options);
    archive.load();
    return archive;
  }

  /** Raw bytes of the transcript held so far (0 when none). */
  archivedTo(name: string): number {
    return this.held.get(name)?.copy.rawBytes ?? 0;
  }

  has(name: string): boolean {
    return this.held.has(name);
  }

  /**
   * Copies bytes [archivedTo(name), upTo) of the live file at `path`. When the file no longer
   * starts with the bytes the copy starts with (replaced, or truncated below the copy), the old
   * copy is dropped, with one log line, and a new one started.
   */
  async copy(name: string, path: string, upTo: number): Promise<void> {
    this.checkOpen();
    checkName(name);
    if (!Number.isSafeInteger(upTo) || upTo < 0) throw new Error(`cannot archive ${name} up to ${upTo}: the end must be a byte offset`);
    await this.queue.run(name, () => this.copyNow(name, path, upTo));
    await this.keepUnderCap();
  }

  /** Bytes [offset, offset + length) of the copy, decompressing only the chunks the range touches. */
  async read(name: string, offset: number, length: number): Promise<Buffer> {
    this.checkOpen();
    return this.queue.run(name, async () => {
      const held = this.held.get(name);
      if (!held) throw new Error(`the archive holds no copy of ${name}`);
      const size = held.copy.rawBytes;
      if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(length) || offset < 0 || length < 0 || offset + length > size) {
        throw new Error(`bytes ${offset} to ${offset + length} lie outside the archived copy of ${name}, which holds ${size} bytes`);
      }
      return held.copy.read(offset, length, this.cache);
    });
  }

  /** The copy from `from` to its end, a chunk's worth at a time (to index a transcript that is gone). */
  async *pieces(name: string, from = 0): AsyncGenerator<Buffer> {
    for (let at = from; at < this.archivedTo(name); ) {
      const piece = await this.read(name, at, Math.min(this.chunkBytes, this.archivedTo(name) - at));
      yield piece;
      at += piece.length;
    }
  }

  list(): ArchivedFile[] {
    return [...this.held].map(([name, { copy, path, copiedAt }]) => ({ name, path, rawBytes: copy.rawBytes, storedBytes: copy.storedBytes, copiedAt }));
  }

  status(): ArchiveStatus {
    let rawBytes = 0;
    let archiveOnly = 0;
    for (const [name, held] of this.held) {
      rawBytes += held.copy.rawBytes;
      if (!this.isLive(name, held)) archiveOnly++;
    }
    return { files: this.held.size, rawBytes, storedBytes: this.storedBytes(), capBytes: this.options.capBytes, archiveOnly, dropped: { ...this.dropped } };
  }

  /** Compresses the tails of transcripts gone quiet and saves the catalog if it changed (also run every minute). */
  async settle(): Promise<void> {
    if (this.closed) return;
    const now = this.now();
    for (const [name, held] of [...this.held]) {
      if (this.closed) return;
      if (held.copy.tailLength === 0 || now - held.copiedAt < this.quietMs) continue;
      await this.queue
        .run(name, async () => {
          const current = this.held.get(name);
          if (current?.copy.tailLength) await current.copy.appendChunk(await current.copy.readTail());
        })
        .catch((err) => this.options.log(`archive: the tail of ${name} could not be compressed: ${messageOf(err)}`));
    }
    if (this.dirty) this.saveCatalog();
  }

  /** Waits for the work under way, then saves the catalog. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    await this.queue.idle();
    await this.capping;
    if (this.dirty) this.saveCatalog();
  }

  private load(): void {
    const { dir, log } = this.options;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const catalog = readCatalog(dir, log);
    const facts = new Map((catalog?.transcripts ?? []).map((entry) => [entry.name, entry]));
    this.dropped = catalog?.dropped ?? noneDropped();
    for (const [id, found] of listCopies(dir)) {
      if (!found.table) {
        // chunks or a tail whose table is gone: a drop or a start cut short
        rmSync(join(dir, `${id}.chunks`), { force: true });
        for (const start of found.tails) rmSync(join(dir, `${id}-${start}.tail`), { force: true });
        continue;
      }
      const copy = loadCopy(dir, id, found, log);
      if (copy === null) continue;
      const name = copy.header.name;
      if (fileIdFor(name) !== id) {
        log(`archive: ${join(dir, `${id}.table`)} names a transcript whose files would be named otherwise, so it is left out`);
        continue;
      }
      const fact = facts.get(name);
      facts.delete(name);
      if (!fact) this.dirty = true;
      this.held.set(name, { copy, path: fact?.path ?? copy.header.path, head: fact?.head ?? null, copiedAt: fact?.copiedAt ?? lastWritten(dir, id) });
    }
    for (const name of facts.keys()) log(`archive: the catalog names a copy of ${name} whose files are gone, so it is left out`);
    if (catalog === null || facts.size > 0) this.dirty = true;
    if (this.dirty) this.saveCatalog();
  }

  private async copyNow(name: string, path: string, upTo: number): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(path, 'r');
    } catch (err) {
      throw new Error(`cannot archive ${name}: ${path} could not be opened (${codeOf(err)})`);
    }
    try {
      const end = Math.min(upTo, (await handle.stat()).size);
      let held = this.held.get(name);
      if (held && !(await this.sameStart(held, handle, end))) {
        this.options.log(
          `archive: ${name} no longer starts with the bytes its copy starts with, so the old copy (${held.copy.rawBytes} bytes) is dropped and a new one started`,
        );
        held.copy.remove();
        this.held.delete(name);
        this.dirty = true;
        held = undefined;
      }
      if (!held) {
        if (end === 0) return;
        held = {
          copy: TranscriptCopy.create(this.options.dir, fileIdFor(name), { name, path, createdAt: this.now() }),
          path,
          head: null,
          copiedAt: this.now(),
        };
        this.held.set(name, held);
        this.dirty = true;
      }
      if (held.path !== path) {
        held.path = path;
        this.dirty = true;
      }
      if (end <= held.copy.rawBytes) return;
      await this.append(held.copy, handle, end);
      held.copiedAt = this.now();
      this.dirty = true;
      if ((held.head?.length ?? 0) < Math.min(HEAD_BYTES, end)) held.head = headOf(await readAt(handle, 0, Math.min(HEAD_BYTES, end), path));
    } finally {
      await handle.close();
    }
  }

  /** Appends bytes [copy.rawBytes, end) of the live file: whole chunks where there are enough, the rest to the tail. */
  private async append(copy: TranscriptCopy, handle: FileHandle, end: number): Promise<void> {
    // one buffer for every chunk of the copy: a new one per chunk (each garbage once compressed)
    // left the kernel ~15 MB larger while the first copy pass ran. With none kept, a copy of less
    // than a chunk reads into a buffer of its own size, which is not kept.
    const buffer = this.readBuffers.pop() ?? Buffer.allocUnsafeSlow(Math.min(this.chunkBytes, end - copy.rawBytes));
    try {
      while (copy.rawBytes < end) {
        // a tail a chunk long or longer (written when chunks were larger) is a chunk of its own
        if (copy.tailLength >= this.chunkBytes) {
          await copy.appendChunk(await copy.readTail());
          continue;
        }
        const want = Math.min(this.chunkBytes - copy.tailLength, end - copy.rawBytes);
        const bytes = await readInto(handle, buffer.subarray(0, want), copy.rawBytes, copy.header.path);
        if (copy.tailLength + bytes.length < this.chunkBytes) await copy.appendTail(bytes);
        else await copy.appendChunk(copy.tailLength > 0 ? Buffer.concat([await copy.readTail(), bytes]) : bytes);
      }
    } finally {
      if (buffer.length === this.chunkBytes && this.readBuffers.length < KEPT_READ_BUFFERS) this.readBuffers.push(buffer);
    }
  }

  /** Whether the live file (`size` bytes) still starts with the bytes the copy starts with. */
  private async sameStart(held: Held, handle: FileHandle, size: number): Promise<boolean> {
    if (size < held.copy.rawBytes) return false;
    held.head ??= headOf(await held.copy.read(0, Math.min(HEAD_BYTES, held.copy.rawBytes), this.cache));
    return headOf(await readAt(handle, 0, held.head.length, held.path)).sha256 === held.head.sha256;
  }

  /**
   * Drops whole copies, least recently copied first, until the archive fits its cap. The copy
   * written last is never dropped: a single transcript larger than the cap stays, over it.
   */
  private keepUnderCap(): Promise<void> {
    const cap = this.options.capBytes;
    if (cap === null) return Promise.resolve();
    const run = this.capping.then(async () => {
      let droppedAny = false;
      while (this.storedBytes() > cap && this.held.size > 1) {
        const [oldest] = [...this.held].reduce((a, b) => (b[1].copiedAt < a[1].copiedAt ? b : a));
        await this.queue.run(oldest, async () => this.dropForCap(oldest, cap));
        droppedAny = true;
      }
      if (droppedAny) this.saveCatalog();
    });
    this.capping = run.catch(() => {});
    return run;
  }

  private dropForCap(name: string, cap: number): void {
    const held = this.held.get(name);
    if (!held) return;
    const live = this.isLive(name, held);
    held.copy.remove();
    this.held.delete(name);
    const bytes = held.copy.storedBytes;
    this.dropped = { files: this.dropped.files + 1, bytes: this.dropped.bytes + bytes, archiveOnly: this.dropped.archiveOnly + (live ? 0 : 1) };
    const when = new Date(held.copiedAt).toISOString();
    const gone = live ? '' : '; its transcript was already deleted, so this session is gone';
    this.options.log(`archive: dropped the copy of ${name} (${bytes} bytes, last copied ${when}) to stay under the cap of ${cap} bytes${gone}`);
  }

  private isLive(name: string, held: Held): boolean {
    return this.options.isLive ? this.options.isLive(name) : existsSync(held.path);
  }

  private storedBytes(): number {
    let total = 0;
    for (const held of this.held.values()) total += held.copy.storedBytes;
    return total;
  }

  private saveCatalog(): void {
    const transcripts: CatalogEntry[] = [...this.held].map(([name, { path, head, copiedAt }]) => ({ name, path, head, copiedAt }));
    try {
      writeCatalog(this.options.dir, { format: CATALOG_FORMAT, transcripts, dropped: this.dropped });
      this.dirty = false;
    } catch (err) {
      this.options.log(`archive: the catalog could not be saved (${codeOf(err)}); the copies' own tables still name them`);
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new Error('the archive is closed');
  }
}

function checkName(name: string): void {
  if (typeof name !== 'string' || name.length === 0 || name.length > MAX_NAME) {
    throw new Error(`a transcript's name must be a path of 1 to ${MAX_NAME} characters`);
  }
}

/** Every copy's files in `dir`, by id, from one listing; temp files a killed writer left are removed. */
function listCopies(dir: string): Map<string, CopyFiles> {
  const copies = new Map<string, CopyFiles>();
  const of = (id: string) => copies.get(id) ?? copies.set(id, { table: false, chunks: false, tails: [] }).get(id)!;
  for (const file of readdirSync(dir)) {
    const match = /^([0-9a-f]{32})(?:\.(table|chunks)|-(\d+)\.tail)$/.exec(file);
    if (match?.[2] === 'table') of(match[1]).table = true;
    else if (match?.[2] === 'chunks') of(match[1]).chunks = true;
    else if (match?.[3] !== undefined) of(match[1]).tails.push(Number(match[3]));
    // the kernel holds the state dir alone, so any temp file here is a dead writer's
    else if (file.endsWith('.tmp')) rmSync(join(dir, file), { force: true });
  }
  return copies;
}

/** The copy, or null (logged) when its files cannot be read: one unreadable copy never stops the archive opening. */
function loadCopy(dir: string, id: string, found: CopyFiles, log: (message: string) => void): TranscriptCopy | null {
  try {
    return TranscriptCopy.load(dir, id, found, log);
  } catch (err) {
    log(`archive: the copy in ${join(dir, `${id}.table`)} could not be read (${codeOf(err)}), so it is left out`);
    return null;
  }
}

/** When the copy's files were last written, for a copy the catalog did not know. */
function lastWritten(dir: string, id: string): number {
  return Math.max(...['table', 'chunks'].map((kind) => statSync(join(dir, `${id}.${kind}`), { throwIfNoEntry: false })?.mtimeMs ?? 0));
}

function headOf(bytes: Buffer): Head {
  return { length: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
}

async function readAt(handle: FileHandle, position: number, length: number, path: string): Promise<Buffer> {
  return readInto(handle, Buffer.alloc(length), position, path);
}

/** Fills `buffer` from `position` of the file. */
async function readInto(handle: FileHandle, buffer: Buffer, position: number, path: string): Promise<Buffer> {
  const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
  if (bytesRead < buffer.length) throw new Error(`${path} shrank while it was being archived`);
  return buffer;
}

function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? messageOf(err);
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
