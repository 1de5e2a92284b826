import { existsSync, rmSync, type Stats, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { TranscriptArchive } from '../archive/transcript-archive';
import type { IndexingProgress } from '../model/types';
import { BlobBuffer } from '../store/blob-buffer';
import { BlobStore, type Blobs } from '../store/blob-store';
import { ArchivedTail } from './archived-tail';
import type { FileIngest, SessionCatalog } from './catalog';
import { blobFileOf, loadIndexCache, saveIndexCache } from './index-cache';
import { IndexPool, type JobOutcome, type ProjectJob } from './index-pool';
import { cutProjects, type Portion, portionsOf } from './index-portions';
import { LINE_SCANNER_PROBLEM } from './line-scanner-memory';
import { dirWatchOf, placeOf, sessionFolderOf, type TranscriptPlace } from './paths';
import type { IndexedProject } from './project-index';
import type { TranscriptSession } from './session';
import { moveBlobs } from './session-codec';
import { namedAcrossPortions, type PortionReach } from './summary-reach';
import { FileTail, type Line } from './tail';
import { realRoot, refusedLink } from './tree-links';
import { TreeWatcher } from './tree-watcher';

// Finds every transcript under the projects root, reads each once (newest first, announcing each
// file's sessions as it goes), then follows them as they grow. A TreeWatcher signals new, written
// and deleted files from watches on the directories that hold them (the projects, each session's
// subagents/) and on the folders of sessions active in the last day (to see a subagents/ appear),
// never one per file. Every signal reads to the end of the file and a trailing re-read runs
// shortly after the last one: no line of a burst is left unread, and offsets make a second read
// of the same bytes a no-op.
//
// With an index cache, a restart reads only what changed: files come back at the offset they
// were read to and their sessions come back asleep; any file that grew wakes its sessions
// (read again up to that offset) before its new lines are read.
//
// With index workers, once the newest files are read, the rest is cut into portions of a few MB
// of one project's files each (index-portions.ts), indexed on other threads (project-index.ts),
// and the kernel's thread takes in what each made of them as a restart takes in the cache.
//
// With an archive, every file is copied as it is read (after the first index, in a pass of its
// own), and a file Claude Code deletes is followed on in Loom's copy: its sessions stay.

const TRAILING_RECHECK_MS = 80;
const CACHE_SAVE_DELAY_MS = 30_000;
/**
 * Files opened and read into ahead of their turn in the first index (without index workers), so
 * their reads never keep it waiting: at most this many, and no more once they hold this many bytes.
 */
const PREFETCH_FILES = 8;
const PREFETCH_BYTES = 2 * 1024 * 1024;
/**
 * The kernel's thread reads the newest files alone before the index workers start, at most this
 * many bytes of them, and fewer once the first screen's sessions are listed if as many bytes are
 * left for the workers: a worker starting beside the first screen's files (its own heap and code
 * to load, on a core the kernel's thread shares with V8's helpers) put the screen 0.1–0.3 s later
 * on two cores (docs/performance.md), and one started for less than that is hardly worth its start.
 */
export const INDEX_WORKERS_AFTER_BYTES = 64 * 1024 * 1024;
/** the sessions of a first screen: the dashboard's list shows about as many */
const FIRST_SCREEN_SESSIONS = 50;
/**
 * With at least `after` bytes to read, the first index lists its first screen from the first
 * `head` bytes of each of the newest files before it reads any of them whole: the head of a
 * session's file holds its first prompt, which names it. On a synthetic gigabyte the 50 newest
 * sessions were listed 0.2 s after the link instead of 0.5 s (docs/performance.md).
 */
export const FIRST_SCREEN_HEADS = { after: 64 * 1024 * 1024, head: 16 * 1024 };
/** a session's folder is watched (for a subagents/ to appear) while the session was written in the last day */
const SESSION_ACTIVE_MS = 24 * 60 * 60 * 1000;

interface TrackedFile {
  path: string;
  place: TranscriptPlace;
  tail: FileTail;
  /** gone from disk: read from Loom's copy */
  archived: boolean;
  ingest: FileIngest | null;
  reading: Promise<void> | null;
  again: boolean;
  timer: NodeJS.Timeout | null;
}

/** A transcript file on disk at start. */
interface FoundFile {
  path: string;
  size: number;
  ino: number;
  mtimeMs: number;
}

export interface TrackerOptions {
  /** where the index cache lives; no cache without it */
  cacheFile?: string;
  /** sessions that changed after a read */
  changed(keys: string[]): void;
  /** a file was read (it may have grown) */
  read?(path: string): void;
  /** Loom's copy of every transcript; deleted files are lost without it */
  archive?: TranscriptArchive | null;
  /** something went wrong; the tracker keeps going */
  log(message: string): void;
  /** worker threads that index whole projects of the first read (files the cache does not vouch for); 0: none */
  indexWorkers?: number;
  /**
   * at most the bytes of the newest files the kernel's thread reads alone before the index
   * workers start, and fewer once the first screen is listed if as many are left:
   * INDEX_WORKERS_AFTER_BYTES unless told (tests: 0, workers on a small tree)
   */
  indexWorkersAfter?: number;
  /** the bytes of a portion the index workers and the kernel's thread share out: PORTION_BYTES unless told (tests: 1, a session each) */
  indexPortionBytes?: number;
  /** once the index workers start, the kernel's thread waits for them rather than read any file itself (tests: every file read by a worker) */
  waitForIndexWorkers?: boolean;
  /** when the first screen is read from heads, and how long a head is: FIRST_SCREEN_HEADS unless told (tests: a small tree, short heads) */
  firstScreenHeads?: { after: number; head: number };
}

/** How a file is read (pump). */
interface ReadHow {
  /** its first read taken from the index workers, while they keep every other core busy (FileTail.read) */
  onThisThread?: boolean;
  /** read to there at most: a first screen's head */
  limit?: number;
  /** in the first index's own turn through the files, not for a reader or a signal */
  inTurn?: boolean;
}

/** As new as the file before it: past the 50th session, which of such files is newer no one can tell. */
const tiedWithLast = (found: FoundFile[], i: number): boolean => i > 0 && found[i].mtimeMs > 0 && found[i].mtimeMs === found[i - 1].mtimeMs;

export class TranscriptTracker {
  readonly progress: IndexingProgress;
  private readonly files = new Map<string, TrackedFile>();
  private readonly tree: TreeWatcher;
  private stopped = false;
  private saveTimer: NodeJS.Timeout | null = null;
  /** sleeping sessions' usage rows and goals, beside the index cache (none without a cache) */
  private blobs: BlobStore | null = null;
  /** something changed since the cache was last written (a restart with nothing new writes nothing) */
  private cacheStale = true;
  /** the tree's real path, which every link must stay inside */
  private readonly treeRoot: string;
  /** links refused so far: each is logged once */
  private readonly refused = new Set<string>();
  /** the index workers, during the first index only */
  private pool: IndexPool | null = null;
  /** the wake in progress, which the next waits for */
  private wakes: Promise<unknown> = Promise.resolve();
  /** files of the first screen whose head alone is read (readHeads): their sessions show no goals until the rest is */
  private readonly headOnly = new Set<string>();

  constructor(
    readonly root: string,
    private readonly catalog: SessionCatalog,
    private readonly options: TrackerOptions,
  ) {
    this.progress = {
      filesDone: 0,
      filesFromCache: 0,
      filesTotal: 0,
      bytesDone: 0,
      bytesTotal: 0,
      done: false,
      workers: options.indexWorkers ?? 0,
      filesByWorkers: 0,
    };
    this.treeRoot = realRoot(root);
    this.tree = new TreeWatcher(root, {
      watchOf: (dir) => dirWatchOf(root, dir),
      activeAtStart: (folder) => writtenSince(`${folder}.jsonl`, Date.now() - SESSION_ACTIVE_MS),
      wantFile: (path) => placeOf(root, path) !== null,
      mayFollowLink: (path) => this.mayRead(path),
      changed: (path) => this.signal(path),
      gone: (path, directory) => (directory ? this.forgetUnder(path) : this.forget(path)),
      log: options.log,
      activeMs: SESSION_ACTIVE_MS,
    });
  }

  /** Starts watching, then reads every existing file once. Resolves when the first index is done. */
  async start(onProgress?: (p: IndexingProgress) => void): Promise<void> {
    if (LINE_SCANNER_PROBLEM) this.options.log(LINE_SCANNER_PROBLEM);
    // watched before the files are listed: a file written meanwhile is signalled, never missed
    const listed = this.tree.start();
    const found = this.discover(listed);
    const onDisk = new Set(found.map((f) => f.path));
    const archived = this.archiveOnly(onDisk);
    const unchanged = this.restoreCache(found, archived);
    for (const path of archived) {
      this.track(path, 'archived');
      found.push({ path, size: this.options.archive!.archivedTo(this.nameOf(path)), ino: 0, mtimeMs: 0 });
    }
    // newest first: the sessions people open first are listed first, while the rest is read
    found.sort((a, b) => b.mtimeMs - a.mtimeMs);
    this.progress.filesTotal = found.length;
    this.progress.bytesTotal = found.reduce((sum, f) => sum + f.size, 0);
    onProgress?.(this.progress);
    /** bytes the kernel's thread reads alone before the index workers start (none start without workers) */
    const workersAfter = this.progress.workers > 0 ? (this.options.indexWorkersAfter ?? INDEX_WORKERS_AFTER_BYTES) : Infinity;
    const done = () => {
      this.progress.filesDone++;
      onProgress?.(this.progress);
    };
    const toRead = found.filter((f) => !unchanged.has(f.path));
    try {
      let readAlone = 0;
      /** bytes a worker could take: files never read (not resumed from the cache, not Loom's copies) */
      const forWorkers = (path: string) => {
        const file = this.files.get(path);
        return !!file && !file.archived && file.tail.state() === null;
      };
      let leftForWorkers = toRead.reduce((sum, f) => (forWorkers(f.path) ? sum + f.size : sum), 0);
      const listed = new Set<string>();
      // alone until the first screen is listed (and every file as new as its last), if what is
      // left is worth a worker, else up to workersAfter
      const alone = (i: number) => readAlone < workersAfter && (listed.size < FIRST_SCREEN_SESSIONS || leftForWorkers < workersAfter || tiedWithLast(found, i));
      await this.readHeads(found, forWorkers, workersAfter);
      let at = 0;
      for (let turn = 0; at < found.length && alone(at); at++) {
        if (this.stopped) return;
        const { path, size } = found[at];
        if (unchanged.has(path)) this.fromCache(size);
        else {
          this.prefetchAfter(toRead, turn++);
          readAlone += size;
          if (forWorkers(path)) leftForWorkers -= size;
          await this.pump(path, { inTurn: true });
        }
        const place = this.files.get(path)?.place;
        if (place?.role === 'main' && this.catalog.isVisible(place.sessionKey)) listed.add(place.sessionKey);
        done();
      }
      if (at < found.length && !this.stopped) await this.indexWithWorkers(found.slice(at), unchanged, done);
      if (this.stopped) return;
    } finally {
      // files opened ahead and not read since (the index stopped, or a read signalled meanwhile took the turn)
      for (const file of this.files.values()) file.tail.dropPrefetch();
      await this.pool?.close();
      this.pool = null;
    }
    this.progress.done = true;
    if (this.cacheStale) this.saveCache();
    onProgress?.(this.progress);
    void this.copyAll(found);
  }

  /**
   * The first screen, listed before any of its files is read whole: the head of each of the
   * newest main files never read (those the workers' rule counts), up to the first screen's
   * sessions and within what the kernel's thread reads alone. Each falls asleep once its head is
   * read, as any session of the first index once read (fifty held awake made V8 move the index's
   * objects to its old generation early, and the whole index slower: docs/performance.md); the
   * first index then wakes and reads each on from its head in turn. Until then a session shows
   * no goals (`onlyHeadRead`): a turn cut at the head's end would read as one still at work, or
   * blocked.
   */
  private async readHeads(found: FoundFile[], unread: (path: string) => boolean, within: number): Promise<void> {
    const { after, head } = this.options.firstScreenHeads ?? FIRST_SCREEN_HEADS;
    if (found.reduce((sum, f) => (unread(f.path) ? sum + f.size : sum), 0) < after) return;
    const listed = new Set<string>();
    let bytes = 0;
    for (let i = 0; i < found.length && (listed.size < FIRST_SCREEN_SESSIONS || tiedWithLast(found, i)) && bytes < within; i++) {
      if (this.stopped) return;
      const { path, size } = found[i];
      const place = this.files.get(path)?.place;
      if (place?.role !== 'main' || !unread(path)) continue;
      bytes += size;
      if (size > head) this.headOnly.add(path);
      await this.pump(path, { limit: head });
      if (this.catalog.isVisible(place.sessionKey)) listed.add(place.sessionKey);
    }
  }

  /** Whether only the head of a file of this session is read yet, in the first index (readHeads). */
  onlyHeadRead(session: TranscriptSession): boolean {
    if (this.headOnly.size === 0) return false;
    for (const path of session.files.keys()) if (this.headOnly.has(path)) return true;
    return false;
  }

  private fromCache(size: number): void {
    this.progress.bytesDone += size;
    this.progress.filesFromCache++;
  }

  /**
   * The rest of the first index, portion by portion (a few MB of one project's files, sessions
   * whole: index-portions.ts), with the index workers: each portion whose files are all unread is
   * shared with them (project-index.ts); the kernel's thread goes through the portions in order,
   * reading those no worker has begun (and the others), while the workers take them from the last.
   * What a worker made of a portion is taken in as it comes.
   */
  private async indexWithWorkers(rest: FoundFile[], unchanged: Set<string>, done: () => void): Promise<void> {
    const portions = portionsOf(rest, (path) => this.files.get(path)?.place, this.options.indexPortionBytes);
    const cut = cutProjects(portions);
    if (cut.size > 0) this.catalog.keepPathsOf(cut);
    try {
      /** the summaries a worker read in each portion taken in from it, leaf and text */
      const readByWorkers = new Map<Portion<FoundFile>, [string, string][]>();
      const shared = this.share(portions, unchanged, done, cut, readByWorkers);
      const taken: Promise<void>[] = [];
      for (const portion of portions) {
        const share = shared.get(portion);
        if (share && (this.options.waitForIndexWorkers || !this.pool!.claim(share.job))) {
          taken.push(share.taken);
          continue;
        }
        share?.release();
        for (const { path, size } of portion.files) {
          if (this.stopped) return;
          if (unchanged.has(path)) this.fromCache(size);
          else await this.pump(path, { onThisThread: true });
          done();
          // read without waiting on the event loop: it turns now, for what the workers posted meanwhile
          await new Promise(setImmediate);
        }
      }
      await Promise.all(taken);
      for (const project of cut) {
        const ofProject = portions.filter((p) => p.project === project);
        await this.settleAcrossPortions(ofProject, readByWorkers);
      }
    } finally {
      this.catalog.keepPathsOf(null);
    }
  }

  /**
   * Once a cut project's portions are in, its summaries and names are made what one catalog
   * reading it in order would have made them (summary-reach.ts). A leaf summarised in two portions
   * takes the text read last in that order, not the one taken in last (workers take portions from
   * the end), unless a file written meanwhile summarised it since. Then each session asleep whose
   * path holds the leaf of a summary read in an earlier portion is woken, and named from all of
   * them (it falls asleep again at a later read, named so).
   */
  private async settleAcrossPortions(portions: Portion<FoundFile>[], readByWorkers: Map<Portion<FoundFile>, [string, string][]>): Promise<void> {
    const project = portions[0].project;
    const read = portions.map((portion) => readByWorkers.get(portion) ?? portion.files.flatMap(({ path }) => this.catalog.summariesReadIn(path)));
    const inPortions = new Set(portions.flatMap((portion) => portion.files.map(({ path }) => path)));
    const since = new Set(
      this.catalog
        .filesWithSummaries()
        .filter((path) => !inPortions.has(path) && this.files.get(path)?.place.project === project)
        .flatMap((path) => this.catalog.summariesReadIn(path).map(([leaf]) => leaf)),
    );
    const last = new Map(read.flat());
    for (const [leaf, text] of last) if (!since.has(leaf) && this.catalog.summaryOf(project, leaf) !== text) this.catalog.setSummary(project, leaf, text);
    const reach = portions.map((portion, i): PortionReach => {
      const asleep: PortionReach['asleep'] = new Map();
      for (const { path } of portion.files) {
        const key = this.files.get(path)?.place.sessionKey;
        const session = key === undefined ? undefined : this.catalog.get(key);
        // a title outranks every summary
        if (!session?.sleeping || session.customTitle !== null || session.aiTitle !== null) continue;
        const hashes = this.catalog.pathOf(session.key);
        if (hashes) asleep.set(session.key, hashes);
      }
      return { asleep, leaves: read[i].map(([leaf]) => leaf) };
    });
    for (const key of namedAcrossPortions(reach)) {
      if (this.stopped) return;
      await this.wake(key);
    }
  }

  /**
   * Shares with index workers every portion whose files are all unread: none when there are no
   * such portions. Until a portion is taken in (or claimed back), its files are held: a signal for
   * one reads it once the portion is in.
   */
  private share(
    portions: Portion<FoundFile>[],
    unchanged: Set<string>,
    done: () => void,
    cut: Set<string>,
    readByWorkers: Map<Portion<FoundFile>, [string, string][]>,
  ): Map<Portion<FoundFile>, SharedPortion> {
    const shared = new Map<Portion<FoundFile>, SharedPortion>();
    const eligible: [Portion<FoundFile>, TrackedFile[]][] = [];
    const partial = this.keysNotWhole(portions);
    for (const portion of portions) {
      const found = portion.files;
      const files = found.map(({ path }) => this.files.get(path));
      const unread = (f: TrackedFile | undefined, i: number): f is TrackedFile =>
        !!f && !unchanged.has(found[i].path) && !f.archived && f.reading === null && f.tail.state() === null && !partial.has(f.place.sessionKey);
      if (files.every(unread)) eligible.push([portion, files]);
    }
    if (eligible.length === 0) return shared;
    this.pool = new IndexPool(Math.min(this.progress.workers, eligible.length), this.options.log);
    for (const [portion, files] of eligible) {
      const { project, bytes } = portion;
      // opened ahead of its turn before the workers started: a worker reads it now, and the size
      // it was opened at would make the file look cut short if it grew meanwhile
      for (const file of files) file.tail.dropPrefetch();
      const work = {
        project,
        files: files.map(({ path, place }) => ({ path, place })),
        summaries: this.catalog.summariesOf(project),
        awakeLimit: this.catalog.awakeLimit,
        cut: cut.has(project),
      };
      const job = this.pool.share(work, bytes);
      const release = this.hold(files);
      const taken = job.outcome
        .then((outcome) => (job.claimed ? undefined : this.takeProject(outcome, files, release, done, (summaries) => readByWorkers.set(portion, summaries))))
        .catch((err) => this.options.log(`could not take in what an index worker read of ${project}: ${(err as Error).message}`));
      shared.set(portion, { job, taken, release });
    }
    return shared;
  }

  /**
   * Session keys a worker's catalog would hold only part of, whose portions stay the kernel
   * thread's: a session already in the catalog (a file of it read, a `loom run` session's other
   * file), or one with files in two portions (a copied or moved transcript, in two projects).
   */
  private keysNotWhole(portions: Portion<FoundFile>[]): Set<string> {
    const portionOf = new Map<string, Portion<FoundFile>>();
    const partial = new Set<string>();
    for (const portion of portions) {
      for (const { path } of portion.files) {
        const key = this.files.get(path)?.place.sessionKey;
        if (key === undefined) continue;
        if (this.catalog.get(key) || (portionOf.get(key) ?? portion) !== portion) partial.add(key);
        portionOf.set(key, portion);
      }
    }
    return partial;
  }

  /**
   * Holds files a worker may be reading: a read asked for meanwhile (a signal, a wake) waits, and
   * happens once they are released (their project taken in, or claimed back).
   */
  private hold(files: TrackedFile[]): () => void {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    for (const file of files) {
      file.reading = held.then(() => {
        if (!file.again || this.stopped) return;
        file.again = false;
        return this.pump(file.path);
      });
    }
    // once per project: claimed back, or taken in (IndexPool.claim refuses a project whose outcome came)
    return () => {
      for (const file of files) file.reading = null;
      release();
    };
  }

  /**
   * Takes in what a worker made of a project, when it still stands for the files (each still
   * unread here, at the same place, and every session key it asked for still the session's own);
   * else the kernel's thread reads the project's files itself, in order.
   */
  private async takeProject(
    outcome: JobOutcome,
    files: TrackedFile[],
    release: () => void,
    done: () => void,
    /** told the summaries the worker read (leaf and text), once what it made is taken in */
    readSummaries: (summaries: [string, string][]) => void,
  ): Promise<void> {
    let taken = false;
    try {
      if (this.stopped) return;
      const indexed = outcome.indexed;
      taken = !!indexed && this.stillStands(indexed, files) && this.adopt(indexed, files, done);
      if (taken) readSummaries(Object.values(indexed!.summaries).flat());
    } finally {
      release();
    }
    if (taken) return this.announce();
    for (const file of files) {
      if (this.stopped) return;
      await this.pump(file.path, { onThisThread: true });
      done();
    }
  }

  /** Takes in what a worker made of a project; false when its blobs could not be kept (nothing taken then). */
  private adopt(indexed: IndexedProject, files: TrackedFile[], done: () => void): boolean {
    let store: Blobs;
    try {
      store = this.blobs ? rebased(indexed, this.blobs) : new BlobBuffer(indexed.blobs);
    } catch (err) {
      this.options.log(
        `could not keep the usage rows and goals an index worker read of ${files[0].place.project} (${(err as Error).message}); the main thread reads it`,
      );
      return false;
    }
    this.catalog.adopt(indexed.sessions, indexed.summaries, store);
    for (const [key, path] of indexed.paths) this.catalog.keepPath(key, path);
    const states = new Map(indexed.files.map((state) => [state.path, state]));
    for (const file of files) {
      const state = states.get(file.path);
      if (state) {
        file.tail.resume(state);
        this.progress.bytesDone += state.offset;
      }
      file.ingest = this.catalog.openFile(file.path, file.place, false);
      this.progress.filesByWorkers++;
      this.options.read?.(file.path);
      done();
    }
    return true;
  }

  private stillStands(indexed: IndexedProject, files: TrackedFile[]): boolean {
    return (
      files.every((f) => this.files.get(f.path) === f && !f.archived && f.tail.state() === null && samePlace(this.placeFor(f.path), f.place)) &&
      indexed.asked.every((id) => this.catalog.keyOf(id) === id) &&
      indexed.sessions.every((c) => this.catalog.get(c.key) === undefined)
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    void this.pool?.close();
    for (const file of this.files.values()) if (file.timer) clearTimeout(file.timer);
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.tree.close();
    await Promise.all([...this.files.values()].map((f) => f.reading));
    if (this.progress.done && this.cacheStale) this.saveCache();
    this.blobs?.close();
    this.blobs = null;
  }

  /**
   * Starts reading the files whose turn comes after `turn` in the first index while that one is
   * parsed: the next one, and more while they are small.
   */
  private prefetchAfter(files: FoundFile[], turn: number): void {
    let bytes = 0;
    for (let next = turn + 1; next < files.length && next <= turn + PREFETCH_FILES && bytes < PREFETCH_BYTES; next++) {
      const { path, size } = files[next];
      bytes += size;
      const file = this.track(path);
      if (file && !file.archived) file.tail.prefetch();
    }
  }

  /** Every transcript file followed, on disk or in Loom's copy. */
  paths(): string[] {
    return [...this.files.keys()];
  }

  /** A fresh reader of a file's lines: from disk, or from its copy when it is gone. */
  tailFor(path: string): FileTail {
    return this.copyNameIfGone(path) !== null ? this.copyTail(path) : new FileTail(path);
  }

  /** The archive's name of a file that is read from its copy (gone from disk); null while it is on disk. */
  copyNameIfGone(path: string): string | null {
    const name = this.nameOf(path);
    const gone = this.files.get(path)?.archived || (this.options.archive?.has(name) && !existsSync(path));
    return gone ? name : null;
  }

  /** A reader of a file's lines from Loom's copy of it. */
  private copyTail(path: string): ArchivedTail {
    return new ArchivedTail(path, this.nameOf(path), this.options.archive!);
  }

  /** The archive's name for a file: its path under the projects root. */
  private nameOf(path: string): string {
    return relative(this.root, path);
  }

  /** Files the archive holds that are not on disk (deleted while no kernel ran). */
  private archiveOnly(onDisk: Set<string>): string[] {
    const archive = this.options.archive;
    if (!archive) return [];
    return archive
      .list()
      .map((f) => join(this.root, f.name))
      .filter((path) => !onDisk.has(path) && placeOf(this.root, path) !== null);
  }

  /** After the first index, copies what each file holds beyond its copy (oldest first, so the cap drops the oldest). */
  private async copyAll(found: { path: string }[]): Promise<void> {
    if (!this.options.archive) return;
    const byAge = await Promise.all(found.map(async ({ path }) => ({ path, at: (await stat(path).catch(() => null))?.mtimeMs ?? 0 })));
    for (const { path } of byAge.sort((a, b) => a.at - b.at)) {
      const file = this.files.get(path);
      if (this.stopped) return;
      if (file) await this.keepCopy(file);
    }
  }

  /** Copies the lines read from a file that its copy lacks. */
  private async keepCopy(file: TrackedFile): Promise<void> {
    const archive = this.options.archive;
    if (!archive || file.archived || !this.progress.done) return;
    const name = this.nameOf(file.path);
    if (archive.archivedTo(name) >= file.tail.offset) return;
    await archive
      .copy(name, file.path, file.tail.offset)
      .catch((err) => this.options.log(`could not copy ${file.path} to the archive: ${(err as Error).message}`));
  }

  /** A read may come before the deletion's own signal: a file gone from disk is read from its copy at once. */
  private followCopyIfGone(file: TrackedFile): void {
    if (!file.archived && this.options.archive?.has(this.nameOf(file.path)) && !existsSync(file.path)) this.followCopy(file);
  }

  /** A file Claude Code deleted: followed on in its copy, its sessions marked archived. */
  private followCopy(file: TrackedFile): void {
    const name = this.nameOf(file.path);
    const copied = this.options.archive!.archivedTo(name);
    if (copied < file.tail.offset) {
      this.options.log(`${file.path} was deleted before Loom copied its last ${file.tail.offset - copied} bytes; the lines in them can no longer be opened`);
    }
    const state = file.tail.state();
    file.tail.dropPrefetch();
    file.tail = this.copyTail(file.path);
    if (state) file.tail.resume(state);
    file.archived = true;
    this.catalog.markArchived(file.path);
    this.announce();
  }

  /** Makes sure a session is awake (its graph in memory), reading its files again if it slept. */
  async wake(key: string): Promise<void> {
    const session = this.catalog.get(key);
    if (!session) return;
    if (!session.sleeping) return this.catalog.use(session);
    await this.pump([...session.files.keys()][0]);
  }

  /** Reads a session's files to their end now. */
  async catchUp(key: string): Promise<void> {
    const session = this.catalog.get(key);
    if (session) await Promise.all([...session.files.keys()].map((path) => this.pump(path)));
  }

  /** Reads a file to its end now, and once more shortly after the last signal. */
  private signal(path: string): void {
    const known = this.files.get(path);
    // a file back at an archived path (restored from a backup, say): it is read again from disk
    if (known?.archived && existsSync(path)) this.forgetWhole(path);
    const file = this.track(path);
    if (!file || this.stopped) return;
    // a written session is active: its folder is watched, for a subagents/ to appear
    const folder = sessionFolderOf(this.root, path);
    if (folder) this.tree.activate(folder);
    void this.pump(path);
    if (file.timer) clearTimeout(file.timer);
    file.timer = setTimeout(() => {
      file.timer = null;
      void this.pump(path);
    }, TRAILING_RECHECK_MS);
  }

  /**
   * A Claude Code session turned out to belong to a `loom run` session: its files (and their
   * subagents) are read again under that key.
   */
  reidentify(sessionId: string): void {
    for (const file of [...this.files.values()]) {
      const named = file.place.role === 'main' ? file.place.fsid : file.place.parentKey ? basename(dirname(dirname(file.path))) : null;
      if (named !== sessionId || samePlace(this.placeFor(file.path), file.place)) continue;
      this.options.log(`${file.path} belongs to Loom session ${this.catalog.keyOf(sessionId)}; reading it again under that key`);
      this.forget(file.path);
      this.signal(file.path);
    }
  }

  /** Where a file sits, with session keys mapped through `loom run` identities. */
  private placeFor(path: string): TranscriptPlace | null {
    const place = placeOf(this.root, path);
    if (place?.role === 'main') return { ...place, sessionKey: this.catalog.keyOf(place.fsid) };
    if (place?.role === 'subagent' && place.parentKey) return { ...place, parentKey: this.catalog.keyOf(place.parentKey) };
    return place;
  }

  /**
   * Follows a file from now on: one on disk (its link judged first, unless the start's listing
   * judged it), or one read from Loom's copy.
   */
  private track(path: string, from: 'disk' | 'listed' | 'archived' = 'disk'): TrackedFile | null {
    let file = this.files.get(path);
    if (file) return file;
    const place = this.placeFor(path);
    if (!place || (from === 'disk' && !this.mayRead(path))) return null;
    const archived = from === 'archived';
    const tail = archived ? this.copyTail(path) : new FileTail(path);
    file = { path, place, tail, archived, ingest: null, reading: null, again: false, timer: null };
    this.files.set(path, file);
    return file;
  }

  private forgetWhole(path: string): void {
    // a file opened ahead of its turn is closed: nothing else would
    this.files.get(path)?.tail.dropPrefetch();
    this.files.delete(path);
    this.headOnly.delete(path);
    this.catalog.forgetFile(path);
  }

  private forget(path: string): void {
    const file = this.files.get(path);
    if (!file) return;
    if (file.timer) clearTimeout(file.timer);
    if (file.archived) return;
    if (this.options.archive?.has(this.nameOf(path))) return this.followCopy(file);
    this.forgetWhole(path);
    this.announce();
  }

  /** A directory gone (deleted, or moved out of the tree): every file under it, as if each were deleted. */
  private forgetUnder(dir: string): void {
    for (const path of [...this.files.keys()]) if (path.startsWith(dir + sep)) this.forget(path);
  }

  /** One reader per file at a time; a signal during a read makes the reader go round again. */
  private pump(path: string, how: ReadHow = {}): Promise<void> {
    const file = this.track(path);
    if (!file) return Promise.resolve();
    if (file.reading !== null) {
      file.again = true;
      return file.reading;
    }
    file.reading = (async () => {
      do {
        file.again = false;
        await this.readOnce(file, how);
      } while (file.again && !this.stopped);
    })().finally(() => {
      file.reading = null;
    });
    return file.reading;
  }

  /** Reads what a file gained, to `limit` at most. */
  private async readOnce(file: TrackedFile, { onThisThread = false, limit = Infinity, inTurn = false }: ReadHow): Promise<void> {
    const initial = !this.progress.done;
    const before = file.tail.offset;
    let woken: TranscriptSession[] = [];
    try {
      this.followCopyIfGone(file);
      woken = await this.wakeGroup(file);
      file.ingest ??= this.catalog.openFile(file.path, file.place, false);
      if (file.archived) this.catalog.markArchived(file.path);
      await file.tail.read(
        {
          restart: (outcome) => {
            this.options.log(`${file.path} was ${outcome}; reading it again from the start`);
            file.ingest = this.catalog.openFile(file.path, file.place, true);
          },
          line: (line) => file.ingest!.line(line),
        },
        limit,
        onThisThread,
      );
      file.ingest.progress(file.tail.offset, file.tail.lines);
      void this.keepCopy(file);
    } catch (err) {
      this.options.log(`error reading ${file.path}: ${(err as Error).message}`);
    }
    if (initial) this.progress.bytesDone += Math.max(0, file.tail.offset - before);
    this.options.read?.(file.path);
    const readOn = limit === Infinity && this.headOnly.delete(file.path);
    // woken by the first index itself, to read on from a first screen's head (not for a reader, a
    // signal): asleep again once read, as any session of the first index
    const ownWake = readOn && inTurn;
    if (ownWake) this.catalog.notWokenForReaders(woken);
    this.catalog.trim(ownWake ? [] : woken, initial, (session) =>
      [...session.files.keys()].some((path) => path !== file.path && this.files.get(path)?.reading != null),
    );
    this.announce();
  }

  private announce(): void {
    const changed = this.catalog.takeDirty();
    if (changed.length === 0) return;
    this.cacheStale = true;
    this.options.changed(changed);
    if (this.progress.done && !this.saveTimer && this.options.cacheFile) {
      this.saveTimer = setTimeout(() => {
        this.saveTimer = null;
        this.saveCache();
      }, CACHE_SAVE_DELAY_MS);
      this.saveTimer.unref();
    }
  }

  /**
   * Before new lines reach a sleeping session, its files are read again up to where the index
   * had read them, rebuilding its graph; every session sharing those files is rebuilt with it.
   * One group at a time: two wakes of one group at once would each rebuild it from scratch over
   * the other (the second finds it awake and does nothing).
   */
  private wakeGroup(file: TrackedFile): Promise<TranscriptSession[]> {
    const woken = this.wakes.then(() => this.wakeGroupNow(file));
    this.wakes = woken.catch(() => undefined);
    return woken;
  }

  private async wakeGroupNow(file: TrackedFile): Promise<TranscriptSession[]> {
    // a file new to a session (a `loom run` session's next Claude Code session, a session id in
    // two projects) is not yet among its files: its lines would reach the session asleep
    const known = this.catalog.get(file.place.sessionKey)?.files.keys() ?? [];
    const { sessions, files } = this.catalog.groupOf([file.path, ...known]);
    if (!sessions.some((s) => s.sleeping)) return [];
    this.catalog.beginWaking(sessions);
    let complete = false;
    try {
      for (const f of files) {
        const tracked = this.files.get(f);
        if (!tracked) continue;
        this.followCopyIfGone(tracked);
        const ingest = this.catalog.openFile(f, tracked.place, false, true);
        const sink = { restart: () => {}, line: (line: Line) => ingest.line(line) };
        const fromDisk = this.copyNameIfGone(f) === null;
        const tail = this.tailFor(f);
        await tail.read(sink, tracked.tail.offset);
        // Deleted as it was read: the rest is in Loom's copy when it has one (the same lines at the
        // same offsets). A file cut short on disk is read again from its start right after, as for
        // an awake session.
        if (fromDisk && tail.offset < tracked.tail.offset && this.copyNameIfGone(f) !== null) {
          const copy = this.copyTail(f);
          copy.resume({ offset: tail.offset, lines: tail.lines, ino: 0 });
          await copy.read(sink, tracked.tail.offset);
        }
      }
      complete = true;
    } finally {
      this.catalog.endWaking(sessions, complete);
    }
    return sessions;
  }

  /** Takes back what the cache knew; returns the files that have not changed since. */
  private restoreCache(found: FoundFile[], archived: string[]): Set<string> {
    const unchanged = new Set<string>();
    if (!this.options.cacheFile) return unchanged;
    const cache = loadIndexCache(this.options.cacheFile, this.root, this.options.log);
    const blobFile = blobFileOf(this.options.cacheFile);
    const blobs = cache && BlobStore.reopen(blobFile, cache.blobs);
    if (cache && !blobs) this.options.log(`the file ${blobFile} of usage rows and goals is missing or not the index cache's; indexing from the transcripts`);
    try {
      // before format 11 the usage rows were alone in index-cache.usage: no cache refers to it now
      if (!blobs) rmSync(blobFile.replace(/\.blobs$/, '.usage'), { force: true });
      this.blobs = blobs ?? BlobStore.create(blobFile);
    } catch (err) {
      this.options.log(`no index cache this run: the file ${blobFile} cannot be written (${(err as Error).message})`);
      return unchanged;
    }
    this.catalog.keepBlobsIn(this.blobs);
    if (!cache || !blobs) return unchanged;
    this.catalog.restore(cache, blobs);
    this.cacheStale = false;
    const onDisk = new Map(found.map((f) => [f.path, f]));
    const copies = new Set(archived);
    for (const state of cache.files) {
      if (copies.has(state.path)) {
        // deleted while no kernel ran: its copy goes on from where the file was read to
        const file = this.track(state.path, 'archived');
        file?.tail.resume(state);
        if (file) file.ingest = this.catalog.openFile(state.path, file.place, false);
        this.catalog.markArchived(state.path);
        if (file && this.options.archive!.archivedTo(this.nameOf(state.path)) === state.offset) unchanged.add(state.path);
        continue;
      }
      // every file on disk was tracked when the listing found it
      const file = this.files.get(state.path);
      const now = onDisk.get(state.path);
      if (!file || !now) {
        this.catalog.forgetFile(state.path);
        this.cacheStale = true;
        continue;
      }
      file.tail.resume(state);
      file.ingest = this.catalog.openFile(state.path, file.place, false);
      if (now.ino === state.ino && now.size === state.offset) unchanged.add(state.path);
    }
    this.catalog.takeDirty();
    return unchanged;
  }

  private saveCache(): void {
    if (!this.options.cacheFile || !this.blobs) return;
    try {
      // A file being read, or whose sessions are waking (the snapshot leaves those out), is left
      // out: after a restart it is read again from its start, and its sessions with it.
      const files = [...this.files.values()].flatMap((f) => {
        const state = f.reading || this.catalog.isWaking(f.path) ? null : f.tail.state();
        return state ? [{ path: f.path, ...state }] : [];
      });
      // the snapshot may write the blob file anew, naming it again: the cache names it after
      const sessions = this.catalog.snapshot(this.blobs);
      saveIndexCache(this.options.cacheFile, { root: this.root, files, blobs: this.blobs.id, ...sessions });
      this.cacheStale = false;
    } catch (err) {
      this.options.log(`could not save the index cache ${this.options.cacheFile}: ${(err as Error).message}`);
    }
  }

  /** Whether a path may be read: anything but a link that leaves the tree, loops or leads to a directory. */
  private mayRead(path: string): boolean {
    const why = refusedLink(this.treeRoot, path);
    if (why === null) return true;
    if (!this.refused.has(path)) {
      this.refused.add(path);
      this.options.log(`skipping ${path}: ${why}`);
    }
    return false;
  }

  /**
   * The transcripts the tree's first listing found (links judged already), tracked, with their
   * size, inode and mtime now. Stat'ed one after another without yielding: at thousands of files,
   * a round trip through libuv's thread pool for each cost more than the calls.
   */
  private discover(listed: string[]): FoundFile[] {
    const found: FoundFile[] = [];
    for (const path of listed) {
      let info: Stats;
      try {
        info = statSync(path);
      } catch {
        continue; // gone since: its watch reports it
      }
      if (this.track(path, 'listed')) found.push({ path, size: info.size, ino: info.ino, mtimeMs: info.mtimeMs });
    }
    return found;
  }
}

/** A worker's blobs appended to the cache's store, its sessions' references moved with them. */
function rebased(indexed: IndexedProject, store: BlobStore): BlobStore {
  const { at } = store.append(indexed.blobs);
  for (const c of indexed.sessions) moveBlobs(c, at);
  return store;
}

const samePlace = (a: TranscriptPlace | null, b: TranscriptPlace): boolean => JSON.stringify(a) === JSON.stringify(b);

/** A portion indexed by a worker (or claimed back by the kernel's thread), its files held until then. */
interface SharedPortion {
  job: ProjectJob;
  /** resolves once what the worker made of it is taken in (or read here instead) */
  taken: Promise<void>;
  release(): void;
}

function writtenSince(path: string, since: number): boolean {
  try {
    return statSync(path).mtimeMs >= since;
  } catch {
    return false;
  }
}
