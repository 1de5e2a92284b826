import type { FileRole, SessionSummary } from '../model/types';
import type { BlobStore, Blobs } from '../store/blob-store';
import type { CacheContents, IndexCache } from './index-cache';
import type { TranscriptPlace } from './paths';
import { type GraphRecord, type OtherRecord, parseLine, type TranscriptRecord } from './record';
import { TranscriptSession } from './session';
import { type CachedSession, decodeSession, encodeSession } from './session-codec';
import { pathHashes } from './summary-reach';
import type { Line } from './tail';

// Every session on this machine, fed line by line from the files that hold them. Knows how
// Claude Code spreads one session over files: subagents in their own files (beside the session
// or under `<session>/subagents/`) or inline as `isSidechain` lines of the main file (1.0.x),
// and `summary` lines that name a session from another file of the same project.
//
// Only the sessions in use stay awake (graph in memory): the least recently used beyond the
// awake limit fall asleep, keeping their facts. Sessions being streamed are pinned awake.

/** sessions kept awake beyond the pinned ones, by default */
export const AWAKE_LIMIT = 64;

export class SessionCatalog {
  private readonly sessions = new Map<string, TranscriptSession>();
  private readonly children = new Map<string, Set<string>>();
  /** per project: summary leafUuid → text, oldest first */
  private readonly summaries = new Map<string, Map<string, string>>();
  /** per main file: uuid of an inline sidechain line → the subagent session it belongs to */
  private readonly sidechains = new Map<string, Map<string, string>>();
  /** the sessions of the group being woken, sleeping or not (`beginWaking`) */
  private readonly inWake = new Set<TranscriptSession>();
  private readonly names = new Map<string, { stamp: string; name: string }>();
  private summaryVersion = 0;
  private readonly dirty = new Set<string>();
  /** the session a line last marked changed (lines come file by file: a look-up per line spared) */
  private lastDirty: string | null = null;
  /** awake sessions, least recently used first */
  private readonly awake = new Set<string>();
  /**
   * sessions woken since the first index began (lines appended to them, a later file of theirs):
   * in use, so that index keeps them by the awake limit rather than putting them to sleep at once
   */
  private readonly rewoken = new Set<string>();
  /** sleeping sessions by the uuid of their path's last atom (`SleepFacts.leaf`): a summary naming it names them */
  private readonly asleepByLeaf = new Map<string, string[]>();
  private readonly pins = new Map<string, number>();
  /** transcript path → the sessions with lines in it (a main session and its inline subagents) */
  private readonly byFile = new Map<string, Set<TranscriptSession>>();
  private lastUsed: string | null = null;
  /** where sleeping sessions' usage rows are kept (beside the index cache); in memory without one */
  private blobs: BlobStore | null = null;
  /** projects whose sessions keep their paths' atoms, hashed, as they fall asleep (`keepPathsOf`) */
  private pathsKept: Set<string> | null = null;
  private readonly asleepPaths = new Map<string, Uint32Array>();
  /** per file of those projects: the summaries read in it, leaf and text, in the order read */
  private readonly summariesRead = new Map<string, [string, string][]>();

  constructor(
    readonly host: string,
    readonly awakeLimit = AWAKE_LIMIT,
    /** the session key of a Claude Code session id: its `loom run` session, else itself */
    readonly keyOf: (sessionId: string) => string = (id) => id,
  ) {}

  /**
   * From now on, sessions of these projects keep their paths' atoms, hashed, as they fall asleep,
   * for `pathOf`, and the summaries read in their files are noted by file, for `summariesReadIn`
   * (summary-reach.ts); null forgets all of it.
   */
  keepPathsOf(projects: Set<string> | null): void {
    this.pathsKept = projects;
    if (projects) return;
    this.asleepPaths.clear();
    this.summariesRead.clear();
  }

  /** The summaries read in a file of a project whose paths are kept (`keepPathsOf`), leaf and text. */
  summariesReadIn(path: string): [string, string][] {
    return this.summariesRead.get(path) ?? [];
  }

  /** The files of those projects with summaries read in them. */
  filesWithSummaries(): string[] {
    return [...this.summariesRead.keys()];
  }

  /** The text a project's summary of this leaf has now. */
  summaryOf(project: string, leaf: string): string | undefined {
    return this.summaries.get(project)?.get(leaf);
  }

  /** A summary of a leaf, read last: it names the sessions that leaf names. */
  setSummary(project: string, leaf: string, text: string): void {
    const known = this.summaries.get(project) ?? new Map<string, string>();
    known.delete(leaf);
    known.set(leaf, text);
    this.summaries.set(project, known);
    this.summaryVersion++;
    this.named(project, leaf, text);
  }

  /** A session's path's atoms, hashed: as it fell asleep, or now when awake; undefined when asleep with none kept. */
  pathOf(key: string): Uint32Array | undefined {
    const session = this.sessions.get(key);
    if (!session) return undefined;
    return session.sleeping ? this.asleepPaths.get(key) : pathHashes(session.activePath());
  }

  /** What `pathOf` answers for a session taken in asleep (an index worker kept it). */
  keepPath(key: string, path: Uint32Array): void {
    if (this.pathsKept) this.asleepPaths.set(key, path);
  }

  /** Keeps sleeping sessions' usage rows in this store from now on (their goals go there as they fall asleep in the first index, else when the cache is saved). */
  keepBlobsIn(store: BlobStore): void {
    this.blobs = store;
  }

  get(key: string): TranscriptSession | undefined {
    return this.sessions.get(key);
  }

  all(): IterableIterator<TranscriptSession> {
    return this.sessions.values();
  }

  /** Sessions changed since the last call. */
  takeDirty(): string[] {
    const keys = [...this.dirty];
    this.clearDirty();
    return keys;
  }

  /**
   * Starts (or restarts, after truncation or replacement) reading one file; `wake` when it is read
   * again to wake the sleeping sessions of its group (`beginWaking`): its lines then reach only those.
   */
  openFile(path: string, place: TranscriptPlace, restart: boolean, wake = false): FileIngest {
    const session = this.ensure(place.sessionKey, place.project);
    if (place.role === 'subagent' && place.parentKey) this.link(session, place.parentKey);
    this.addFile(session, path, place.fsid, place.role);
    if (restart) {
      session.restartFile(path);
      for (const child of this.children.get(session.key) ?? []) this.sessions.get(child)?.restartFile(path);
      this.sidechains.delete(path);
      this.dirty.add(session.key);
    }
    return new FileIngest(this, session, path, place, wake);
  }

  /** Routes one parsed line to the session it belongs to (when `wake`, only to one being woken). */
  accept(session: TranscriptSession, path: string, place: TranscriptPlace, record: TranscriptRecord, wake: boolean): void {
    if (record.kind === 'summary') {
      // read before (a wake reads only lines the index read): set again, an older summary of a
      // leaf would pass for news over a newer one read since, and rename who it names
      if (wake) return;
      this.setSummary(place.project, record.leafUuid, record.text);
      if (this.pathsKept?.has(place.project)) {
        const read = this.summariesRead.get(path);
        if (read) read.push([record.leafUuid, record.text]);
        else this.summariesRead.set(path, [[record.leafUuid, record.text]]);
      }
      return;
    }
    if (record.kind === 'graph' && place.role === 'subagent' && !place.parentKey && !session.parentKey && record.sessionId) {
      this.link(session, this.keyOf(record.sessionId));
    }
    const target = record.kind !== 'title' && record.sidechain && place.role === 'main' ? this.inlineSubagent(session, path, record) : session;
    if (!target || (wake && !target.waking)) return;
    if (!target.waking && target.key !== this.lastDirty) {
      this.dirty.add(target.key);
      this.lastDirty = target.key;
    }
    this.use(target);
    if (record.kind === 'title') target.addTitle(record);
    else if (record.kind === 'graph') target.addRecord(record);
  }

  markDirty(key: string): void {
    this.dirty.add(key);
  }

  private clearDirty(): void {
    this.dirty.clear();
    this.lastDirty = null;
  }

  summary(session: TranscriptSession): Omit<SessionSummary, 'live'> {
    const facts = session.sleeping ?? this.awakeFacts(session);
    return {
      host: this.host,
      key: session.key,
      name: facts.name,
      dir: session.cwd ?? '',
      project: session.project,
      gitBranch: session.gitBranch,
      models: [...session.models],
      startedAt: facts.startedAt,
      updatedAt: session.updatedAt,
      files: [...session.files.values()].map((f) => ({ ...f })),
      archived: [...session.files.values()].every((f) => f.archived),
      turnCount: facts.turnCount,
      atomCount: facts.atomCount,
      parentKey: session.parentKey,
      subagentKeys: this.subagentsOf(session.key),
      parseErrors: [...session.parseErrors],
      generation: session.generation,
      epoch: session.epoch,
    };
  }

  /** The subagents' sessions a session has, those with lines only (as listed). */
  subagentsOf(key: string): string[] {
    return [...(this.children.get(key) ?? [])].filter((k) => this.isVisible(k));
  }

  /** A session with no atom (a 0-byte file, summaries only) is not shown. */
  isVisible(key: string): boolean {
    const session = this.sessions.get(key);
    return !!session && session.atomCount() > 0;
  }

  /** The sessions with lines in a file: the file's own session before inline subagents. */
  sessionsOfFile(path: string): string[] {
    const sessions = [...(this.byFile.get(path) ?? [])];
    return sessions.sort((a, b) => Number(a.parentKey !== null) - Number(b.parentKey !== null)).map((s) => s.key);
  }

  /** Every session whose lines are in these files, and the files of those sessions, transitively. */
  groupOf(paths: Iterable<string>): { sessions: TranscriptSession[]; files: Set<string> } {
    // Runs before every read of a file: follow the file index, never scan every session.
    const files = new Set(paths);
    const group = new Set<TranscriptSession>();
    const queue = [...files];
    while (queue.length > 0) {
      for (const session of this.byFile.get(queue.pop()!) ?? []) {
        if (group.has(session)) continue;
        group.add(session);
        for (const f of session.files.keys()) {
          if (files.has(f)) continue;
          files.add(f);
          queue.push(f);
        }
      }
    }
    return { sessions: [...group], files };
  }

  /**
   * Before the files of a group are read again to wake its sleeping sessions: the same lines
   * rebuild them (and the routing of their inline subagents' lines, which is the same from the
   * same lines). Its awake sessions have every one of those lines already, and are left as they
   * are: rebuilt too, a wake that failed part way left them awake with part of their lines. No
   * session of the group falls asleep until the wake is done.
   */
  beginWaking(group: TranscriptSession[]): void {
    for (const session of group) {
      this.inWake.add(session);
      if (session.sleeping) session.beginWaking();
    }
  }

  /** Whether the sessions with lines in a file are being woken. */
  isWaking(path: string): boolean {
    for (const session of this.byFile.get(path) ?? []) if (session.waking) return true;
    return false;
  }

  endWaking(group: TranscriptSession[], complete: boolean): void {
    for (const session of group) {
      this.inWake.delete(session);
      const leaf = session.sleeping?.leaf ?? null;
      session.endWaking(complete);
      if (!session.sleeping) {
        this.forgetLeaf(session.key, leaf);
        this.rewoken.add(session.key);
      }
      this.use(session);
    }
  }

  /** Keeps a session awake while something streams it. */
  pin(key: string): () => void {
    this.pins.set(key, (this.pins.get(key) ?? 0) + 1);
    return () => {
      const n = (this.pins.get(key) ?? 1) - 1;
      if (n > 0) this.pins.set(key, n);
      else this.pins.delete(key);
    };
  }

  /**
   * Puts the least recently used sessions to sleep until the awake limit is met. During the
   * first index the limit is none: a session falls asleep as soon as it is read, so that its
   * graph dies in the young generation rather than outliving the next files' collections
   * (docs/performance.md, Every session asleep once read); one woken since is in use, and sleeps
   * only past the awake limit, as after the index (else each line appended to a live session
   * would wake it again, reading its whole transcript). `keep` (just woken for a
   * caller that has yet to read them) stay awake this time, and so does a session the reader
   * says `staysAwake`: one with a file still being read (the rest of that read would reach a
   * dropped graph, and the session would sleep on without it), or in an index worker, which
   * cannot wake one, one with a file still to come.
   */
  trim(keep: TranscriptSession[] = [], firstIndex = false, staysAwake: (session: TranscriptSession) => boolean = () => false): void {
    if (!firstIndex) this.rewoken.clear();
    let excess = this.awake.size - (firstIndex ? 0 : this.awakeLimit);
    // how many of those woken since sleep now: the least recently used past the limit
    let rewokenExcess = firstIndex ? this.awakeRewoken() - this.awakeLimit : 0;
    for (const key of this.awake) {
      if (excess <= 0) return;
      const session = this.sessions.get(key);
      if (!session || this.inWake.has(session) || this.pins.has(key) || keep.includes(session)) continue;
      if (staysAwake(session)) continue;
      if (firstIndex && this.rewoken.has(key) && rewokenExcess-- <= 0) continue;
      if (this.pathsKept?.has(session.project)) this.asleepPaths.set(key, pathHashes(session.activePath()));
      session.sleep(this.nameOf(session));
      this.rememberLeaf(session);
      if (this.blobs) {
        session.usage.spill(this.blobs);
        session.subagentUsage.spill(this.blobs);
        // In the first index its goals go there now too: left to the cache's first save, they were
        // a tenth of a second at the index's end, when no worker is left to share it (performance.md).
        if (firstIndex) session.storedGoals().save(this.blobs);
      }
      if (!session.parentKey) for (const f of session.files.keys()) this.sidechains.delete(f);
      this.awake.delete(key);
      if (this.lastUsed === key) this.lastUsed = null;
      excess--;
    }
  }

  /** Sessions woken for the index's own next read, not for a reader: the first index lets them sleep again at once. */
  notWokenForReaders(sessions: TranscriptSession[]): void {
    for (const session of sessions) this.rewoken.delete(session.key);
  }

  private awakeRewoken(): number {
    let count = 0;
    for (const key of this.rewoken) if (this.awake.has(key)) count++;
    return count;
  }

  /** Marks a session as just used (awake sessions only). */
  use(session: TranscriptSession): void {
    if (session.sleeping && !session.waking) return;
    if (this.lastUsed === session.key) return; // runs per line: skip the reorder when nothing moves
    this.lastUsed = session.key;
    this.awake.delete(session.key);
    this.awake.add(session.key);
  }

  private addFile(session: TranscriptSession, path: string, fsid: string, role: FileRole): void {
    session.addFile(path, fsid, role);
    this.indexFile(session, path);
  }

  private indexFile(session: TranscriptSession, path: string): void {
    const sessions = this.byFile.get(path) ?? new Set<TranscriptSession>();
    sessions.add(session);
    this.byFile.set(path, sessions);
  }

  private ensure(key: string, project: string): TranscriptSession {
    let session = this.sessions.get(key);
    if (!session) {
      session = new TranscriptSession(key, project);
      this.sessions.set(key, session);
    }
    return session;
  }

  private link(child: TranscriptSession, parentKey: string): void {
    if (child.parentKey === parentKey || parentKey === child.key) return;
    child.parentKey = parentKey;
    const set = this.children.get(parentKey) ?? new Set<string>();
    set.add(child.key);
    this.children.set(parentKey, set);
    this.dirty.add(parentKey);
  }

  /** 1.0.x wrote Task subagents into the main file; each chain from a root line is one subagent. */
  private inlineSubagent(main: TranscriptSession, path: string, record: GraphRecord | OtherRecord): TranscriptSession | null {
    if (!record.uuid) return null;
    const chains = this.sidechains.get(path) ?? new Map<string, string>();
    this.sidechains.set(path, chains);
    const key = (record.parent && chains.get(record.parent)) || `sidechain-${record.uuid.slice(0, 8)}`;
    chains.set(record.uuid, key);
    const child = this.ensure(key, main.project);
    this.link(child, main.key);
    this.addFile(child, path, main.key, 'main');
    return child;
  }

  /** Everything the index cache keeps of the sessions, one session at a time. */
  snapshot(blobs: BlobStore): Pick<CacheContents, 'sessions' | 'summaries'> {
    const sessions = [...this.sessions.values()];
    // every blob a session still refers to (a waking one reads its goals until it is awake)
    blobs.compact(sessions.flatMap((s) => [s.usage.storedRows(), s.subagentUsage.storedRows(), s.storedGoals().storedBlob()]).filter((r) => r !== null));
    const cached = function* (this: SessionCatalog): Generator<CachedSession> {
      yield* this.encoded(sessions, blobs);
      // the blobs reach their file before the cache that refers to them is in place
      blobs.flush();
    }.call(this);
    return { sessions: cached, summaries: this.summaryPairs() };
  }

  /** Every session as the index cache keeps it, and the summaries: what an index worker hands over of a project. */
  handOver(blobs: Blobs): { sessions: CachedSession[]; summaries: IndexCache['summaries'] } {
    return { sessions: [...this.encoded([...this.sessions.values()], blobs)], summaries: this.summaryPairs() };
  }

  /** A project's summaries, in the order they were read (what an index worker goes on from). */
  summariesOf(project: string): [string, string][] {
    return [...(this.summaries.get(project) ?? [])];
  }

  private *encoded(sessions: TranscriptSession[], blobs: Blobs): Generator<CachedSession> {
    for (const s of sessions) if (!s.waking) yield encodeSession(s, s.sleeping ?? this.awakeFacts(s), blobs);
  }

  private summaryPairs(): IndexCache['summaries'] {
    return Object.fromEntries([...this.summaries].map(([project, map]) => [project, [...map]]));
  }

  /** A session and its subagents, depth first. */
  familyOf(key: string): TranscriptSession[] {
    const session = this.sessions.get(key);
    if (!session) return [];
    return [session, ...[...(this.children.get(key) ?? [])].flatMap((child) => this.familyOf(child))];
  }

  /** Brings back sessions from the index cache, asleep. */
  restore(cache: Pick<IndexCache, 'sessions' | 'summaries'>, blobs: Blobs): void {
    this.adopt(cache.sessions, cache.summaries, blobs);
    this.clearDirty();
  }

  /**
   * Takes in sessions indexed elsewhere (the index cache, or an index worker's project), asleep,
   * with their projects' summaries, each read after those already here. None of their keys may be
   * here already (the caller checks).
   */
  adopt(sessions: Iterable<CachedSession>, summaries: IndexCache['summaries'], blobs: Blobs): void {
    for (const [project, pairs] of Object.entries(summaries)) for (const [leaf, text] of pairs) this.setSummary(project, leaf, text);
    for (const c of sessions) {
      const s = this.ensure(c.key, c.project);
      Object.assign(s, decodeSession(c, blobs));
      this.rememberLeaf(s);
      // named by its project's summaries as they stand here (one read after it fell asleep where it was indexed)
      const text = c.facts.leaf === null ? undefined : this.summaries.get(c.project)?.get(c.facts.leaf);
      if (c.facts.leaf !== null && text !== undefined) this.named(c.project, c.facts.leaf, text);
      for (const f of c.files) {
        s.files.set(f.path, f);
        this.indexFile(s, f.path);
      }
      if (c.parentKey) this.link(s, c.parentKey);
      this.dirty.add(c.key);
    }
  }

  /** A file is gone from disk, and Loom's copy of it serves its sessions from now on. */
  markArchived(path: string, archived = true): void {
    for (const session of this.byFile.get(path) ?? []) {
      const file = session.files.get(path);
      if (!file || file.archived === archived) continue;
      file.archived = archived;
      this.dirty.add(session.key);
    }
  }

  /** A file is gone: sessions that lived only in it go too. */
  forgetFile(path: string): void {
    this.byFile.delete(path);
    for (const [key, s] of this.sessions) {
      if (!s.files.delete(path) || s.files.size > 0) continue;
      this.sessions.delete(key);
      this.awake.delete(key);
      // a session written again under this key counts its version from 0: the stamp would match
      this.names.delete(key);
      this.forgetLeaf(key, s.sleeping?.leaf ?? null);
      if (this.lastUsed === key) this.lastUsed = null;
      if (s.parentKey) this.children.get(s.parentKey)?.delete(key);
      this.dirty.add(key);
    }
  }

  private awakeFacts(session: TranscriptSession) {
    const path = session.activePath();
    return {
      name: this.nameOf(session),
      startedAt: path[0]?.t ?? 0,
      turnCount: session.turns().length,
      atomCount: path.length,
      leaf: path.at(-1)?.uuid ?? null,
      goals: session.storedGoals(),
    };
  }

  /**
   * A summary of this leaf names the sessions whose path ends there, unless a title outranks it:
   * no atom lies further along. Sleeping ones take the name at once (else they would keep the
   * one they fell asleep with until woken); awake ones, named as they are read, are told they
   * changed. A summary of an atom before a sleeping session's last names it once it wakes.
   */
  private named(project: string, leaf: string, text: string): void {
    for (const key of this.asleepByLeaf.get(leaf) ?? []) {
      const s = this.sessions.get(key);
      if (!s?.sleeping || s.sleeping.leaf !== leaf || s.project !== project || s.customTitle !== null || s.aiTitle !== null) continue;
      if (s.sleeping.name === text) continue;
      s.sleeping.name = text;
      this.dirty.add(key);
    }
    for (const key of this.awake) {
      const s = this.sessions.get(key);
      if (s && !s.sleeping && s.project === project && s.hasLine(leaf)) this.dirty.add(key);
    }
  }

  private rememberLeaf(session: TranscriptSession): void {
    const leaf = session.sleeping?.leaf;
    if (!leaf) return;
    const keys = this.asleepByLeaf.get(leaf);
    if (!keys) this.asleepByLeaf.set(leaf, [session.key]);
    else if (!keys.includes(session.key)) keys.push(session.key);
  }

  private forgetLeaf(key: string, leaf: string | null): void {
    if (leaf === null) return;
    const keys = this.asleepByLeaf.get(leaf)?.filter((k) => k !== key);
    if (keys?.length) this.asleepByLeaf.set(leaf, keys);
    else this.asleepByLeaf.delete(leaf);
  }

  /**
   * A session's name: a title record (custom, then AI); else the newest summary of its project
   * whose leaf is on its path; else its first human prompt's first line.
   */
  nameOf(session: TranscriptSession): string {
    if (session.sleeping) return session.sleeping.name;
    const stamp = `${session.version}:${this.summaryVersion}`;
    const cached = this.names.get(session.key);
    if (cached?.stamp === stamp) return cached.name;
    const name = session.customTitle ?? session.aiTitle ?? this.summaryName(session) ?? this.promptName(session) ?? session.key;
    this.names.set(session.key, { stamp, name });
    return name;
  }

  /** Summaries carry no time; the newest is the one whose leaf lies furthest along the path. */
  private summaryName(session: TranscriptSession): string | null {
    const project = this.summaries.get(session.project);
    // most projects have none
    if (!project?.size) return null;
    let newest: string | null = null;
    for (const atom of session.activePath()) newest = project.get(atom.uuid) ?? newest;
    return newest;
  }

  /**
   * The first prompt a person typed to the model: never a `!` command, a `#` memory or a local
   * slash command; a slash command the model ran (`/review the parser`) only when nothing else was
   * asked, and only with its arguments.
   */
  private promptName(session: TranscriptSession): string | null {
    let command: string | null = null;
    for (const atom of session.activePath()) {
      if (atom.author?.kind !== 'human' || !atom.promptLine || atom.terminalNote) continue;
      if (!atom.promptLine.startsWith('/')) return atom.promptLine;
      if (/^\/\S+\s+\S/.test(atom.promptLine)) command ??= atom.promptLine;
    }
    return command;
  }
}

/** Feeds one file's lines into the catalog. */
export class FileIngest {
  constructor(
    private readonly catalog: SessionCatalog,
    private readonly session: TranscriptSession,
    private readonly path: string,
    private readonly place: TranscriptPlace,
    /** read again to wake sleeping sessions (`SessionCatalog.openFile`) */
    private readonly wake: boolean,
  ) {}

  line(line: Line): void {
    this.record(parseLine(line, this.path, this.place), line.number, line.offset);
  }

  /** One line's parse result (here or in an index worker); `number` and `offset` place a reason. */
  record(record: TranscriptRecord | string | null, number: number, offset: number): void {
    if (record === null) return;
    if (typeof record === 'string') this.error(number, offset, record);
    else this.catalog.accept(this.session, this.path, this.place, record, this.wake);
  }

  /** Records how far the file has been read. */
  progress(bytes: number, lines: number): void {
    const file = this.session.files.get(this.path);
    if (file && (file.bytes !== bytes || file.lines !== lines)) {
      file.bytes = bytes;
      file.lines = lines;
      this.catalog.markDirty(this.session.key);
    }
  }

  private error(line: number, offset: number, reason: string): void {
    if (this.wake && !this.session.waking) return;
    this.session.addParseError({ file: this.path, line, offset, reason });
    this.catalog.markDirty(this.session.key);
  }
}
