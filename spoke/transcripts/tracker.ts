import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { IndexingProgress } from '../model/types';
import type { FileIngest, SessionCatalog } from './catalog';
import { placeOf, type TranscriptPlace } from './paths';
import { FileTail } from './tail';

// Finds every transcript under the projects root, reads each once, then follows them as they
// grow. chokidar passes at most one change per file per ~50 ms and drops the rest, so every
// event reads to the end of the file and a trailing re-read runs shortly after the last one:
// no line of a burst is left unread, and offsets make a second read of the same bytes a no-op.

const TRAILING_RECHECK_MS = 80;

interface TrackedFile {
  path: string;
  place: TranscriptPlace;
  tail: FileTail;
  ingest: FileIngest | null;
  reading: Promise<void> | null;
  again: boolean;
  timer: NodeJS.Timeout | null;
}

export interface TrackerEvents {
  /** sessions that changed after a read */
  changed(keys: string[]): void;
  /** something went wrong reading a file; the tracker keeps going */
  error(path: string, err: Error): void;
}

export class TranscriptTracker {
  readonly progress: IndexingProgress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, done: false };
  private readonly files = new Map<string, TrackedFile>();
  private watcher: FSWatcher | null = null;
  private stopped = false;

  constructor(
    readonly root: string,
    private readonly catalog: SessionCatalog,
    private readonly events: TrackerEvents,
  ) {}

  /** Starts watching, then reads every existing file once. Resolves when the first index is done. */
  async start(onProgress?: (p: IndexingProgress) => void): Promise<void> {
    this.watcher = watch(this.root, {
      ignoreInitial: true,
      ignored: (path, stats) => !!stats?.isFile() && !path.endsWith('.jsonl'),
    });
    this.watcher.on('add', (path) => this.signal(path));
    this.watcher.on('change', (path) => this.signal(path));
    this.watcher.on('error', (err) => this.events.error(this.root, err as Error));
    await new Promise<void>((resolve) => this.watcher!.once('ready', () => resolve()));

    const found = await this.discover();
    this.progress.filesTotal = found.length;
    this.progress.bytesTotal = found.reduce((sum, f) => sum + f.size, 0);
    onProgress?.(this.progress);
    for (const { path } of found) {
      if (this.stopped) return;
      await this.pump(path);
      this.progress.filesDone++;
      onProgress?.(this.progress);
    }
    this.progress.done = true;
    onProgress?.(this.progress);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const file of this.files.values()) if (file.timer) clearTimeout(file.timer);
    await this.watcher?.close();
    await Promise.all([...this.files.values()].map((f) => f.reading));
  }

  /** Reads a file to its end now, and once more shortly after the last signal. */
  private signal(path: string): void {
    const file = this.track(path);
    if (!file || this.stopped) return;
    void this.pump(path);
    if (file.timer) clearTimeout(file.timer);
    file.timer = setTimeout(() => {
      file.timer = null;
      void this.pump(path);
    }, TRAILING_RECHECK_MS);
  }

  private track(path: string): TrackedFile | null {
    let file = this.files.get(path);
    if (file) return file;
    const place = placeOf(this.root, path);
    if (!place) return null;
    file = { path, place, tail: new FileTail(path), ingest: null, reading: null, again: false, timer: null };
    this.files.set(path, file);
    return file;
  }

  /** One reader per file at a time; a signal during a read makes the reader go round again. */
  private pump(path: string): Promise<void> {
    const file = this.track(path);
    if (!file) return Promise.resolve();
    if (file.reading) {
      file.again = true;
      return file.reading;
    }
    file.reading = (async () => {
      do {
        file.again = false;
        await this.readOnce(file);
      } while (file.again && !this.stopped);
    })().finally(() => {
      file.reading = null;
    });
    return file.reading;
  }

  private async readOnce(file: TrackedFile): Promise<void> {
    const initial = !this.progress.done;
    const before = file.tail.offset;
    try {
      file.ingest ??= this.catalog.openFile(file.path, file.place, false);
      await file.tail.read({
        restart: () => {
          file.ingest = this.catalog.openFile(file.path, file.place, true);
        },
        line: (line) => file.ingest!.line(line),
      });
      file.ingest.progress(file.tail.offset, file.tail.lines);
    } catch (err) {
      this.events.error(file.path, err as Error);
    }
    if (initial) this.progress.bytesDone += Math.max(0, file.tail.offset - before);
    const changed = this.catalog.takeDirty();
    if (changed.length > 0) this.events.changed(changed);
  }

  private async discover(): Promise<{ path: string; size: number }[]> {
    let entries;
    try {
      entries = await readdir(this.root, { recursive: true, withFileTypes: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    const found: { path: string; size: number }[] = [];
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.jsonl')) continue;
      const path = join(entry.parentPath, entry.name);
      if (!placeOf(this.root, path)) continue;
      const info = await stat(path).catch(() => null);
      if (info) found.push({ path, size: info.size });
    }
    return found;
  }
}
