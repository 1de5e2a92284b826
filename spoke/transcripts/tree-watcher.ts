import { type Dirent, existsSync, type FSWatcher, lstatSync, readdirSync, type Stats, watch } from 'node:fs';
import { basename, join, sep } from 'node:path';

// Follows a tree of files with watches on its directories, never one per file: a watch on a
// directory (inotify on Linux, FSEvents on macOS) reports every write, creation, deletion and
// rename of its children by name. So the watches a history holds grow with its directories,
// and only with those that need one. Some are watched always (those that hold files); others
// only while active (a directory that holds none, watched to see one that will appear in it):
// from when they appear, are activated or are found active at start, until `activeMs` pass
// with no change in them. A link to a file is the one file with a watch of its own: writes to
// its target show in the target's directory, not in the link's.

export type DirWatch = 'always' | 'while-active';

export interface TreeWatcherOptions {
  /** how a directory under the root is watched; null: never, nor anything under it */
  watchOf(dir: string): DirWatch | null;
  /** at start: whether a directory watched while active is active */
  activeAtStart(dir: string): boolean;
  /** whether a file is followed, by its path */
  wantFile(path: string): boolean;
  /** whether a link to a file may be followed; a refused one is never watched */
  mayFollowLink(path: string): boolean;
  /** a followed file appeared, was written or was replaced */
  changed(path: string): void;
  /** a path is gone: a file, or a directory with all it held */
  gone(path: string, directory: boolean): void;
  log(message: string): void;
  /** how long a directory watched while active stays watched with no change in it */
  activeMs: number;
}

interface WatchedDir {
  watcher: FSWatcher;
  kind: DirWatch;
  lastChange: number;
}

const SWEEP_EVERY_MS = 10 * 60 * 1000;

export class TreeWatcher {
  private readonly dirs = new Map<string, WatchedDir>();
  /** while-active directories not watched now (inactive at start, or expired): `activate` watches them */
  private readonly idle = new Set<string>();
  private readonly links = new Map<string, FSWatcher>();
  private sweeper: NodeJS.Timeout | null = null;
  private closed = false;
  private limitLogged = false;

  constructor(
    readonly root: string,
    private readonly options: TreeWatcherOptions,
  ) {}

  /**
   * Watches the root and what it holds that needs a watch; reports none of the files there
   * already, but returns those it follows (every directory was watched before it was read).
   */
  start(): string[] {
    const listed: string[] = [];
    this.addDir(this.root, { report: false, start: true, listed });
    if (this.closed) return [];
    this.sweeper = setInterval(() => this.sweep(), Math.min(this.options.activeMs, SWEEP_EVERY_MS));
    this.sweeper.unref();
    return listed;
  }

  /** The watches held: one per watched directory and per followed link. */
  get watches(): number {
    return this.dirs.size + this.links.size;
  }

  /** Something is going on in a while-active directory: it is watched (and its files reported) if it was not. */
  activate(dir: string): void {
    const known = this.dirs.get(dir);
    if (known) known.lastChange = Date.now();
    else if (this.idle.has(dir)) this.addDir(dir, { report: true, start: false });
  }

  close(): void {
    this.closed = true;
    if (this.sweeper) clearInterval(this.sweeper);
    for (const { watcher } of this.dirs.values()) watcher.close();
    for (const watcher of this.links.values()) watcher.close();
    this.dirs.clear();
    this.links.clear();
  }

  /**
   * Watches a directory, then reads it: what it holds is reported (at start, listed instead)
   * even when it was written before the watch was set.
   */
  private addDir(dir: string, how: { report: boolean; start: boolean; listed?: string[] }): void {
    const kind = this.options.watchOf(dir);
    if (this.closed || kind === null) return;
    const known = this.dirs.get(dir);
    if (known) {
      known.lastChange = Date.now();
      return;
    }
    if (kind === 'always' || !how.start || this.options.activeAtStart(dir)) {
      this.idle.delete(dir);
      if (!this.watchDir(dir, kind)) return;
    } else {
      this.idle.add(dir);
    }
    for (const entry of entriesOf(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) this.addDir(path, how);
      else if ((entry.isFile() || entry.isSymbolicLink()) && this.found(path, entry.isSymbolicLink(), how.report)) how.listed?.push(path);
    }
  }

  private watchDir(dir: string, kind: DirWatch): boolean {
    try {
      const watcher = watch(dir, (event, name) => this.event(dir, event, name));
      watcher.on('error', (err) => {
        this.options.log(`stopped watching ${dir}: ${err.message}`);
        this.unwatchUnder(dir);
      });
      this.dirs.set(dir, { watcher, kind, lastChange: Date.now() });
      return true;
    } catch (err) {
      this.cannotWatch(dir, err as NodeJS.ErrnoException);
      return false;
    }
  }

  /**
   * A file in a directory: followed if it is one of interest (a link given its own watch, when it
   * may be followed), reported if asked. Whether it is followed.
   */
  private found(path: string, link: boolean, report: boolean): boolean {
    // every link is judged (a refused one is logged), transcript-named or not
    const follow = !link || this.options.mayFollowLink(path);
    if (!this.options.wantFile(path)) return false;
    if (link && follow) this.followLink(path);
    if (report) this.options.changed(path);
    return follow;
  }

  private event(dir: string, event: string, name: string | null): void {
    const watched = this.dirs.get(dir);
    if (this.closed || !watched) return;
    watched.lastChange = Date.now();
    // no name: the kernel could not say what changed, so everything in it is looked at
    if (name === null) return this.rescan(dir);
    const path = join(dir, name);
    if (event === 'change') {
      if (!this.dirs.has(path) && this.options.wantFile(path)) this.options.changed(path);
      return;
    }
    // a rename: something appeared, left or was replaced, or the directory itself went
    let stats: Stats;
    try {
      stats = lstatSync(path);
    } catch {
      return this.vanished(name === basename(dir) && !existsSync(dir) ? dir : path);
    }
    if (stats.isDirectory()) return this.addDir(path, { report: true, start: false });
    if (this.dirs.has(path)) this.vanished(path);
    if (!stats.isSymbolicLink()) this.unfollowLink(path);
    this.found(path, stats.isSymbolicLink(), true);
  }

  private rescan(dir: string): void {
    for (const entry of entriesOf(dir)) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) this.addDir(path, { report: true, start: false });
      else this.found(path, entry.isSymbolicLink(), true);
    }
  }

  private vanished(path: string): void {
    const directory = this.dirs.has(path) || this.idle.has(path);
    this.unfollowLink(path);
    if (directory) this.unwatchUnder(path);
    this.options.gone(path, directory);
  }

  /** Forgets a directory and every directory under it, closing their watches. */
  private unwatchUnder(dir: string): void {
    for (const [path, { watcher }] of this.dirs) {
      if (path !== dir && !path.startsWith(dir + sep)) continue;
      watcher.close();
      this.dirs.delete(path);
    }
    for (const path of this.idle) if (path === dir || path.startsWith(dir + sep)) this.idle.delete(path);
  }

  /** Unwatches while-active directories with no change for `activeMs`; `activate` watches them again. */
  private sweep(): void {
    const before = Date.now() - this.options.activeMs;
    for (const [path, dir] of this.dirs) {
      if (dir.kind !== 'while-active' || dir.lastChange >= before) continue;
      dir.watcher.close();
      this.dirs.delete(path);
      this.idle.add(path);
    }
  }

  /** A link's own watch (fs.watch follows it to its target); a rename there is the target replaced, watched anew. */
  private followLink(path: string): void {
    if (this.closed || this.links.has(path)) return;
    try {
      const watcher = watch(path, (event) => {
        if (event === 'rename') {
          this.unfollowLink(path);
          if (isLink(path) && this.options.mayFollowLink(path)) this.followLink(path);
        }
        this.options.changed(path);
      });
      watcher.on('error', () => this.unfollowLink(path));
      this.links.set(path, watcher);
    } catch (err) {
      this.cannotWatch(path, err as NodeJS.ErrnoException);
    }
  }

  private unfollowLink(path: string): void {
    this.links.get(path)?.close();
    this.links.delete(path);
  }

  /** One log line per failure; past the system's limit, one line in all, saying what to raise. */
  private cannotWatch(path: string, err: NodeJS.ErrnoException): void {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return; // gone already: nothing to follow there
    const limit = err.code === 'ENOSPC' ? 'fs.inotify.max_user_watches' : err.code === 'EMFILE' ? 'fs.inotify.max_user_instances' : null;
    if (!limit) return this.options.log(`could not watch ${path}: ${err.message}`);
    if (this.limitLogged) return;
    this.limitLogged = true;
    this.options.log(
      `could not watch ${path} (nor, unlogged, any directory after it), so what is written there is read only at the next start: the system's limit on file watches is reached; raise ${limit} (sudo sysctl ${limit}=524288)`,
    );
  }
}

/**
 * What a directory holds; nothing when it is gone (its parent reports it). Read synchronously: at
 * start the walk reads thousands of directories, and a round trip through libuv's thread pool for
 * each cost more than the reads.
 */
function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
