import { hostname } from 'node:os';
import { relative } from 'node:path';
import { TranscriptArchive } from './archive/transcript-archive';
import { GoalClears } from './goals/clears';
import { withLive } from './goals/judge';
import { withClock } from './goals/sign-of-life';
import { SilenceAlarms } from './goals/silence-alarms';
import { type HookLine, UNKNOWN_LIVE } from './live/hook-state';
import { withIdleAtoms } from './live/idle-atoms';
import { liveSpans, readHookLog } from './live/live-spans';
import { LiveStates } from './live/live-states';
import type { PermissionRequest } from './model/act';
import type { Goal } from './model/goal';
import type { LiveSpan, LiveState } from './model/live';
import { Pulse } from './model/pulse';
import type { SearchRequest, SearchResult } from './model/search';
import {
  type EventFilter,
  type Feed,
  type FeedChange,
  NotFoundError,
  type ProjectDirectory,
  type SessionChange,
  type SessionFilter,
  type SessionPage,
  type Source,
  type StreamFrame,
  type StreamRequest,
  type TimelineLane,
  type TimelineQuery,
  type TranscriptPage,
  UnavailableError,
} from './model/source';
import type { Atom, AtomMeta, ContentBlock, HostInfo, IndexingProgress, KernelInfo, SessionSummary, Turn } from './model/types';
import type { UsageQuery, UsageRow, UsageTotals } from './model/usage';
import { SearchIndex } from './search/search-index';
import { type Listed, pageSessions } from './session-list';
import { eventRows, MAX_LIMIT, transcriptPage } from './session-pages';
import { searchSessions } from './session-search';
import { streamSession } from './session-stream';
import { checkTimelineQuery, laneSessions, timelineLane } from './timeline';
import { SessionCatalog } from './transcripts/catalog';
import { type CopyReader, loadAtoms, readTranscriptRange } from './transcripts/content';
import { defaultIndexWorkers } from './transcripts/index-pool';
import type { TranscriptSession } from './transcripts/session';
import { type TrackerOptions, TranscriptTracker } from './transcripts/tracker';
import type { LedgerRow } from './usage/ledger';
import { type LedgerEntry, usageRows } from './usage/report';
import { larger, totals } from './usage/usage';
import { VERSION } from './version';

// This machine's sessions, read from its Claude Code transcripts, served as a Source.

type ChangeKind = SessionChange['kind'];

/**
 * While the first index runs, every session read is a change: a subscriber hears of them together
 * this often rather than once per file (a page open on a long history otherwise took one frame
 * per session for each of its streams, and spent its time drawing them; docs/performance.md).
 */
const FIRST_INDEX_CHANGES_MS = 250;

export interface LocalSourceOptions extends Pick<TrackerOptions, 'indexWorkersAfter' | 'indexPortionBytes' | 'waitForIndexWorkers' | 'firstScreenHeads'> {
  projectsRoot: string;
  /** where to keep the index cache that makes restarts fast; none when absent */
  cacheFile?: string;
  /** this kernel's host name; default the machine's short hostname */
  host?: string;
  /** how many sessions stay awake (graph in memory) beyond those being streamed */
  awakeLimit?: number;
  /** where `loom hook` writes Claude Code's hook events (`<state>/states`); no live state without it */
  liveDir?: string;
  /** where cleared goals are kept; clearing is unavailable without it */
  clearsFile?: string;
  /**
   * The kernel's clock, in epoch ms: what is at work now (an ask is working only with a sign of
   * life) and when sessions changed. Default Date.now; tests inject a fixed one.
   */
  now?: () => number;
  log?: (message: string) => void;
  /** the newest request Claude Code asked through Loom's hook in any of these Claude Code sessions (pending first) */
  latestRequest?: (claudeSessionIds: string[]) => PermissionRequest | null;
  /** every hook line as it arrives */
  hookObserved?: (line: HookLine) => void;
  /** the sessions that changed, each time some do (their transcript, their live state) */
  onChange?: (keys: string[]) => void;
  /** where the search index lives (`<state>/search.db`); no search without it */
  searchFile?: string;
  /** where Loom keeps its copy of every transcript (`<state>/archive`); a deleted transcript is lost without it */
  archiveDir?: string;
  /** bytes the copy may take on disk, oldest copies dropped first past it; null for no cap */
  archiveCapBytes?: number | null;
  /** worker threads that index whole projects of the first read (0: the kernel's thread alone); defaultIndexWorkers() unless given */
  indexWorkers?: number;
}

export class LocalSource implements Source {
  readonly host: HostInfo;
  private readonly catalog: SessionCatalog;
  private readonly tracker: TranscriptTracker;
  private readonly now: () => number;
  private readonly startedAt: number;
  private readonly listeners = new Set<(changes: Map<string, ChangeKind>) => void>();
  /** sessions that were visible at the last change, to tell ADDED from UPDATED */
  private readonly visible = new Set<string>();
  /** subagents' sessions announced while their parent was not shown (no `parent` to give): told again when it is */
  private readonly orphans = new Set<string>();
  /** moves on every change to any session (sessionsVersion) */
  private version = 0;
  /** when this kernel last saw each session change, by its own clock (for `since`) */
  private readonly changedAt = new Map<string, number>();
  private readonly log: (message: string) => void;
  private readonly live: LiveStates | null;
  private clears: GoalClears | null = null;
  /** sleeping sessions whose stored goals could not be read: each is read again once to judge them */
  private readonly rejudged = new Set<string>();
  private readonly alarms: SilenceAlarms;
  private readonly searchIndex: SearchIndex | null;
  private readonly archive: TranscriptArchive | null;

  constructor(readonly options: LocalSourceOptions) {
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
    this.alarms = new SilenceAlarms(this.now, (key) => this.changed([key]));
    this.host = { name: options.host ?? defaultHostName(), local: true };
    this.log = options.log ?? (() => {});
    this.catalog = new SessionCatalog(this.host.name, options.awakeLimit, (id) => this.live?.identityOf(id) ?? id);
    this.archive = options.archiveDir ? openArchive(options.archiveDir, options.archiveCapBytes ?? null, this.log) : null;
    this.tracker = new TranscriptTracker(options.projectsRoot, this.catalog, {
      archive: this.archive,
      cacheFile: options.cacheFile,
      changed: (keys) => this.changed(keys),
      read: (path) => this.searchIndex?.changed(path),
      log: this.log,
      indexWorkers: options.indexWorkers ?? defaultIndexWorkers(),
      indexWorkersAfter: options.indexWorkersAfter,
      indexPortionBytes: options.indexPortionBytes,
      waitForIndexWorkers: options.waitForIndexWorkers,
      firstScreenHeads: options.firstScreenHeads,
    });
    this.searchIndex = options.searchFile ? this.openSearchIndex(options.searchFile) : null;
    this.live = options.liveDir
      ? new LiveStates(
          options.liveDir,
          (id) => this.changed([this.catalog.keyOf(id)]),
          this.log,
          (id) => this.tracker.reidentify(id),
          options.hookObserved,
        )
      : null;
  }

  /** Reads every transcript once, then follows them. Resolves when the first index is done. */
  async start(onProgress?: (progress: IndexingProgress) => void): Promise<void> {
    if (this.options.clearsFile) this.clears = await GoalClears.open(this.options.clearsFile, this.log);
    await this.live?.start();
    await this.tracker.start(onProgress);
    // after the first index, never beside it: the session list comes first
    void this.searchIndex?.startPass(this.tracker.paths());
    // sessions restored from the index cache were not announced as changed
    for (const session of this.catalog.all()) if (session.parentKey === null) this.alarms.set(session.key, session.updatedAt);
  }

  async stop(): Promise<void> {
    this.alarms.stop();
    this.live?.stop();
    await this.tracker.stop();
    await this.searchIndex?.close();
    await this.archive?.close();
  }

  kernel(): KernelInfo {
    let sessionCount = 0;
    for (const s of this.catalog.all()) if (this.isListed(s)) sessionCount++;
    return {
      version: VERSION,
      host: this.host,
      startedAt: this.startedAt,
      projectsRoot: this.options.projectsRoot,
      indexing: { ...this.tracker.progress },
      searchIndexing: this.searchIndex ? { ...this.searchIndex.progress } : null,
      archive: this.archive?.status() ?? null,
      sessionCount,
    };
  }

  hosts(): HostInfo[] {
    return [this.host];
  }

  sessions(filter: SessionFilter, first: number, after: string | null): SessionPage {
    const listed: (Listed & { session: TranscriptSession })[] = [];
    for (const session of this.catalog.all()) {
      if (this.isListed(session))
        listed.push({ key: session.key, updatedAt: session.updatedAt, dir: session.cwd ?? '', name: () => this.catalog.nameOf(session), session });
    }
    const page = pageSessions(listed, filter, first, after);
    return { ...page, sessions: page.sessions.map((l) => this.summaryOf(l.session)) };
  }

  session(host: string, key: string): SessionSummary | null {
    const session = this.find(host, key);
    return session ? this.summaryOf(session) : null;
  }

  async turns(host: string, key: string): Promise<Turn[]> {
    const session = await this.awake(host, key);
    return withIdleAtoms(session.turns(), this.idleTimesOf(session));
  }

  async transcript(host: string, key: string, limit: number, beforeSequence: number | null): Promise<TranscriptPage> {
    const session = await this.awake(host, key);
    return { ...transcriptPage(session.activePath(), limit, beforeSequence), epoch: session.epoch, generation: session.generation };
  }

  async events(host: string, key: string, filter: EventFilter): Promise<AtomMeta[]> {
    const session = await this.awake(host, key);
    return eventRows(session.activePath(), () => session.turns(), filter);
  }

  goals(host: string, key: string): Goal[] {
    return this.goalsNow(this.require(host, key));
  }

  feed(hosts: string[] | null, since: number | null): Feed {
    const feed: Feed = { working: [], blocked: [], completed: [] };
    if (hosts && !hosts.includes(this.host.name)) return feed;
    const column = { WORKING: feed.working, BLOCKED: feed.blocked, COMPLETED: feed.completed };
    for (const session of this.catalog.all()) {
      if (!this.isListed(session)) continue;
      for (const goal of this.feedGoalsOf(session)) {
        if (since === null || goal.updatedAt >= since) column[goal.rolledUpStatus].push({ host: this.host.name, key: session.key, goal });
      }
    }
    for (const list of Object.values(column)) list.sort((a, b) => b.goal.updatedAt - a.goal.updatedAt);
    return feed;
  }

  feedChanged(since: number | null, completedSince: number | null = null): AsyncIterableIterator<FeedChange> {
    const pending = new Set<string>();
    const pulse = this.follow((changes) => {
      for (const key of changes.keys()) pending.add(key);
    }, since);
    const goalsOf = (key: string): FeedChange | null => {
      const session = this.catalog.get(key);
      if (!session || !this.isListed(session)) return null;
      const goals = this.feedGoalsOf(session);
      // a page that holds the newest completed goals needs no older ones (a first index sends every session's)
      if (completedSince === null) return { host: this.host.name, key, goals };
      return { host: this.host.name, key, goals: goals.filter((g) => g.rolledUpStatus !== 'COMPLETED' || g.updatedAt >= completedSince) };
    };
    async function* changes(): AsyncGenerator<FeedChange> {
      try {
        for await (const _ of pulse) {
          const keys = [...pending];
          pending.clear();
          for (const key of keys) {
            const change = goalsOf(key);
            if (change) yield change;
          }
        }
      } finally {
        pulse.close();
      }
    }
    return changes();
  }

  /** A session's goals as the feed has them: as they are now, without the cleared ones and those rolled up under another. */
  private feedGoalsOf(session: TranscriptSession): Goal[] {
    return this.goalsNow(session).filter((goal) => !goal.rolledUpInto && !this.clears?.has(`${session.key}/${goal.anchor}`));
  }

  /** A session's goals as the transcript shows them, with what the hooks say and the clock. */
  private goalsNow(session: TranscriptSession): Goal[] {
    // a first screen's session read to its head only: its last turn may end later in the file
    if (this.tracker.onlyHeadRead(session)) return [];
    const live = this.liveOf(session.key);
    const request = this.options.latestRequest?.(this.claudeIdsOf(session.key)) ?? null;
    return withClock(withLive(session.goals() ?? this.rejudge(session.key), live, request), live, this.now());
  }

  /**
   * A sleeping session whose stored goals are not goals (a damaged file beside the index cache)
   * is read again, which judges them anew, and announced as changed once it is awake; until then
   * it has none.
   */
  private rejudge(key: string): Goal[] {
    if (this.rejudged.has(key)) return [];
    this.rejudged.add(key);
    this.log(`the stored goals of session ${key} could not be read; reading its transcript again to judge them`);
    void this.tracker.wake(key).then(
      () => this.changed([key]),
      (err: Error) => this.log(`session ${key} could not be read again to judge its goals: ${err.message}`),
    );
    return [];
  }

  /** The Loom session id (`host:key`) a Claude Code session is part of. */
  sessionIdOfClaude(claudeSessionId: string): string {
    return `${this.host.name}:${this.catalog.keyOf(claudeSessionId)}`;
  }

  projectDirectories(first: number): ProjectDirectory[] {
    const dirs = new Map<string, ProjectDirectory>();
    for (const session of this.catalog.all()) {
      if (session.parentKey !== null) continue;
      const { dir, updatedAt } = this.catalog.summary(session);
      if (!dir) continue;
      const known = dirs.get(dir) ?? { dir, sessionCount: 0, lastActiveAt: 0 };
      dirs.set(dir, { dir, sessionCount: known.sessionCount + 1, lastActiveAt: Math.max(known.lastActiveAt, updatedAt) });
    }
    return [...dirs.values()].sort((a, b) => b.lastActiveAt - a.lastActiveAt).slice(0, first);
  }

  /** A session's directory and its Claude Code session ids, the one that wrote its newest line last; null for none. */
  async sessionFiles(key: string): Promise<{ dir: string; claudeIds: string[] } | null> {
    const session = this.catalog.get(key);
    if (!session || session.parentKey !== null) return null;
    await this.keptAwake(session);
    const newest = session.activePath().at(-1)?.fsid;
    const ids = this.claudeIdsOf(key).filter((id) => id !== newest);
    return { dir: this.catalog.summary(session).dir, claudeIds: newest ? [...ids, newest] : ids };
  }

  /** What the hooks last said about a session. */
  liveState(key: string): LiveState {
    return this.liveOf(key);
  }

  /** The Loom session key a Claude Code session belongs to. */
  keyOf(claudeSessionId: string): string {
    return this.catalog.keyOf(claudeSessionId);
  }

  /** Reads a session's files to their end now (a process writing it just ended). */
  catchUp(key: string): Promise<void> {
    return this.tracker.catchUp(key);
  }

  /** A session's user lines on its active path written at or after `since`. */
  async userAtomsSince(key: string, since: number): Promise<AtomMeta[]> {
    if (!this.catalog.get(key)) return [];
    return this.events(this.host.name, key, { type: 'user', turnAnchor: null, since, afterSequence: null, limit: MAX_LIMIT });
  }

  /** Something about a session changed outside its transcript (who holds it, whether it works). */
  touched(key: string): void {
    this.changed([key]);
  }

  /** Something outside the transcript changed for this Claude Code session (a request held open or closed). */
  claudeSessionChanged(claudeSessionId: string): void {
    this.changed([this.catalog.keyOf(claudeSessionId)]);
  }

  async clearGoals(goals: { host: string; key: string; anchor: string }[], idempotencyKey: string): Promise<{ batchId: string; cleared: number }> {
    const clears = this.requireClears();
    const mine = goals.filter((g) => g.host === this.host.name);
    const batch = await clears.clear(
      mine.map((g) => `${g.key}/${g.anchor}`),
      idempotencyKey,
    );
    this.changed([...new Set(mine.map((g) => g.key))]);
    return { batchId: batch.batchId, cleared: batch.goals.length };
  }

  async undoClear(batchId: string): Promise<{ restored: number } | null> {
    const goals = await this.requireClears().undo(batchId);
    if (!goals) return null;
    this.changed([...new Set(goals.map((g) => g.split('/')[0]))]);
    return { restored: goals.length };
  }

  private requireClears(): GoalClears {
    if (!this.clears) throw new UnavailableError('this kernel keeps no state dir, so goals cannot be cleared');
    return this.clears;
  }

  sessionUsage(host: string, key: string, includeSubagents: boolean): UsageTotals {
    const session = this.require(host, key);
    if (!includeSubagents) return totals(session.usage.entries());
    const ledger = new Map<number, LedgerRow>();
    for (const member of this.catalog.familyOf(session.key)) {
      for (const message of [...member.usage.entries(), ...member.subagentUsage.entries()]) {
        const seen = ledger.get(message.id);
        ledger.set(message.id, seen ? larger(seen, message) : message);
      }
    }
    return totals(ledger.values());
  }

  usage(query: UsageQuery): UsageRow[] {
    // One ledger across every session: a resumed file may repeat messages of an earlier one.
    const ledger = new Map<number, LedgerEntry>();
    for (const session of this.catalog.all()) {
      for (const message of [...session.usage.entries(), ...session.subagentUsage.entries()]) {
        const seen = ledger.get(message.id);
        if (!seen || larger(seen.message, message) === message) {
          ledger.set(message.id, { message, session: `${this.host.name}:${session.key}`, host: this.host.name });
        }
      }
    }
    return usageRows(ledger.values(), query);
  }

  async timeline(query: TimelineQuery): Promise<TimelineLane[]> {
    checkTimelineQuery(query);
    const listed: SessionSummary[] = [];
    for (const s of this.catalog.all()) if (this.isListed(s)) listed.push(this.summaryOf(s));
    const lanes: TimelineLane[] = [];
    // One session at a time: reading turns wakes a session, and only so many stay awake.
    for (const session of laneSessions(listed, query)) {
      let turns: Turn[];
      try {
        turns = await this.turns(session.host, session.key);
      } catch (err) {
        if (err instanceof NotFoundError) continue; // gone since it was listed
        throw err;
      }
      lanes.push(timelineLane(session, turns, await this.stripesOf(session.key, turns), query, this.now()));
    }
    return lanes;
  }

  /** Permission and compaction spans from the hook logs of a session's Claude Code sessions. */
  private async stripesOf(key: string, turns: Turn[]): Promise<LiveSpan[]> {
    const dir = this.options.liveDir;
    if (!dir) return [];
    const atomTimes = turns
      .flatMap((turn) => turn.atoms)
      .filter((atom) => atom.type !== 'idle')
      .map((atom) => atom.t)
      .sort((a, b) => a - b);
    const spans: LiveSpan[] = [];
    for (const id of this.claudeIdsOf(key)) spans.push(...liveSpans(await readHookLog(dir, id), atomTimes));
    return spans.sort((a, b) => a.t - b.t);
  }

  /** Loom's copy of a transcript Claude Code deleted, by byte range; null when it has none. */
  private readonly copyOf: CopyReader = (file) => {
    const name = relative(this.options.projectsRoot, file);
    const archive = this.archive;
    return archive?.has(name) ? (offset, length) => archive.read(name, offset, length) : null;
  };

  private openSearchIndex(file: string): SearchIndex | null {
    try {
      return new SearchIndex({
        file,
        log: this.log,
        readRange: (path, offset, length) => readTranscriptRange(path, offset, length, this.copyOf),
        copyName: (path) => this.tracker.copyNameIfGone(path),
        archive: this.archive,
      });
    } catch (err) {
      this.log(`search is off: its index ${file} could not be opened (${(err as Error).message}); remove the file and restart to build it again`);
      return null;
    }
  }

  async search(request: SearchRequest): Promise<SearchResult> {
    if (!this.searchIndex) throw new UnavailableError('search is off on this kernel: it could not open its index (see its log)');
    return searchSessions(this.searchIndex, request, {
      host: this.host.name,
      sessionsOfFile: (path) => this.catalog.sessionsOfFile(path),
      holds: async (key, uuid) => (await this.atom(this.host.name, key, uuid)) !== null,
    });
  }

  /** Resolves when the search index has nothing left to read (tests and benches wait on it). */
  searchSettled(): Promise<void> {
    return this.searchIndex?.settled() ?? Promise.resolve();
  }

  async atom(host: string, key: string, uuid: string): Promise<{ atom: AtomMeta; rewound: boolean } | null> {
    const session = await this.awake(host, key);
    const onPath = session.activePath().find((a) => a.uuid === uuid);
    if (onPath) return { atom: onPath, rewound: false };
    for (const branch of session.rewoundBranches()) {
      const atom = branch.atoms.find((a) => a.uuid === uuid);
      if (atom) return { atom, rewound: true };
    }
    return null;
  }

  async content(host: string, key: string, atoms: AtomMeta[]): Promise<ContentBlock[][]> {
    const session = await this.awake(host, key);
    return (await this.load(session, atoms)).map((a) => a.content);
  }

  sessionsChanged(since: number | null): AsyncIterableIterator<SessionChange> {
    const pending = new Map<string, ChangeKind>();
    const pulse = this.follow((changes) => {
      for (const [key, kind] of changes) pending.set(key, pending.get(key) === 'ADDED' && kind === 'UPDATED' ? 'ADDED' : kind);
    }, since);
    const { catalog, host } = this;
    const summaryOf = (s: TranscriptSession) => this.summaryOf(s);
    async function* changes(): AsyncGenerator<SessionChange> {
      try {
        for await (const _ of pulse) {
          const batch = [...pending];
          pending.clear();
          for (const [key, kind] of batch) {
            const session = kind === 'REMOVED' ? undefined : catalog.get(key);
            yield { kind, host: host.name, key, session: session ? summaryOf(session) : null };
          }
        }
      } finally {
        pulse.close();
      }
    }
    return changes();
  }

  sessionsVersion(): AsyncIterableIterator<number> {
    const pulse = this.follow(() => {});
    pulse.notify(); // the version now comes first
    // not a generator: ending it must not wait for the next change
    const versions: AsyncIterableIterator<number> = {
      next: async () => ((await pulse.next()).done ? { value: undefined, done: true } : { value: this.version, done: false }),
      return: async () => {
        pulse.close();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => versions,
    };
    return versions;
  }

  sessionStream(request: StreamRequest): AsyncIterableIterator<StreamFrame> {
    const session = this.require(request.host, request.key);
    // Listen and pin first: nothing appended from here on can be missed, and the session
    // stays awake for as long as it is streamed.
    const listener = (changes: Map<string, ChangeKind>) => {
      if (changes.has(session.key)) pulse.notify();
    };
    const unpin = this.catalog.pin(session.key);
    const pulse = new Pulse(() => {
      this.listeners.delete(listener);
      unpin();
    });
    this.listeners.add(listener);
    const load = (atoms: AtomMeta[]) => this.load(session, atoms);
    const wake = () => this.tracker.wake(session.key);
    const closed = () => this.liveOf(session.key).state === 'CLOSED';
    async function* frames(): AsyncGenerator<StreamFrame> {
      try {
        await wake();
        yield* streamSession(session, request, pulse, load, closed);
      } finally {
        pulse.close();
      }
    }
    const stream = frames();
    // Closing the stream early (the client unsubscribed) must release the listener too, even
    // while the generator waits for the next change.
    const close = stream.return.bind(stream);
    stream.return = (value) => {
      pulse.close();
      return close(value);
    };
    return stream;
  }

  /** Loads atoms' content; names each tool result after the call it answers, and links a Task's to its subagent. */
  private async load(session: TranscriptSession, metas: AtomMeta[]): Promise<Atom[]> {
    // read while the session is awake: another session's read may put it to sleep while the content loads
    const names = session.toolNames();
    const atoms = await loadAtoms(metas, this.copyOf);
    for (const atom of atoms) {
      for (const block of atom.content) {
        if (block.type !== 'tool_result') continue;
        block.toolName = names.get(block.toolUseId) ?? null;
        if (block.agentId) block.subagent = this.subagentOf(session, block.agentId);
      }
    }
    return atoms;
  }

  /** Claude Code names a subagent's file `agent-<agentId>.jsonl`, so its session key; it must be this session's own. */
  private subagentOf(parent: TranscriptSession, agentId: string): { host: string; key: string } | null {
    const key = `agent-${agentId}`;
    return this.catalog.get(key)?.parentKey === parent.key && this.catalog.isVisible(key) ? { host: this.host.name, key } : null;
  }

  private changed(keys: string[]): void {
    const changes = new Map<string, ChangeKind>();
    for (const key of keys) {
      const shown = this.catalog.isVisible(key);
      if (shown) changes.set(key, this.visible.has(key) ? 'UPDATED' : 'ADDED');
      else if (this.visible.has(key)) changes.set(key, 'REMOVED');
      if (shown) this.visible.add(key);
      else this.visible.delete(key);
    }
    // a parent shown only now: its subagents announced before it, with no parent to show, are told again
    for (const orphan of this.orphans) {
      const parent = this.catalog.get(orphan)?.parentKey;
      if (!parent || !this.catalog.isVisible(parent)) continue;
      this.orphans.delete(orphan);
      if (this.visible.has(orphan) && !changes.has(orphan)) changes.set(orphan, 'UPDATED');
    }
    for (const [key, kind] of changes) {
      const parent = kind === 'REMOVED' ? null : this.catalog.get(key)?.parentKey;
      if (parent && !this.catalog.isVisible(parent)) this.orphans.add(key);
      else this.orphans.delete(key);
    }
    if (changes.size === 0) return;
    const now = this.now();
    for (const [key, kind] of changes) {
      if (kind === 'REMOVED') this.changedAt.delete(key);
      else this.changedAt.set(key, now);
      const session = kind === 'REMOVED' ? undefined : this.catalog.get(key);
      if (session?.parentKey === null) this.alarms.set(key, session.updatedAt);
    }
    this.version++;
    for (const listener of this.listeners) listener(changes);
    this.options.onChange?.([...changes.keys()]);
  }

  private summaryOf(session: TranscriptSession): SessionSummary {
    return { ...this.catalog.summary(session), live: this.liveOf(session.key) };
  }

  /** The Claude Code session ids of a session (several when `loom run` kept resumes together). */
  private claudeIdsOf(key: string): string[] {
    const session = this.catalog.get(key);
    const ids = session ? [...session.files.values()].filter((f) => f.role === 'main').map((f) => f.fsid) : [];
    return ids.length > 0 ? ids : [key];
  }

  private idleTimesOf(session: TranscriptSession): number[] {
    if (!this.live) return [];
    return this.claudeIdsOf(session.key)
      .flatMap((id) => this.live!.idleTimes(id))
      .sort((a, b) => a - b);
  }

  /** The live state of a session: of its newest Claude Code session when it spans several. */
  private liveOf(key: string): LiveState {
    if (!this.live) return UNKNOWN_LIVE;
    let newest = UNKNOWN_LIVE;
    for (const id of this.claudeIdsOf(key)) {
      const live = this.live.get(id);
      if (live.since !== null && (newest.since === null || live.since >= newest.since)) newest = live;
    }
    return newest;
  }

  /**
   * A pulse that wakes after `take` has had each batch of changes; with `since`, first after it
   * had the sessions changed since then, as UPDATED (for a subscriber catching up after a gap).
   */
  private follow(take: (changes: Map<string, ChangeKind>) => void, since: number | null = null): Pulse {
    let held: NodeJS.Timeout | null = null;
    const listener = (changes: Map<string, ChangeKind>) => {
      take(changes);
      if (this.tracker.progress.done) return pulse.notify();
      held ??= setTimeout(() => {
        held = null;
        pulse.notify();
      }, FIRST_INDEX_CHANGES_MS);
    };
    const pulse = new Pulse(() => {
      if (held) clearTimeout(held);
      this.listeners.delete(listener);
    });
    this.listeners.add(listener);
    if (since !== null) listener(new Map(this.changedSince(since).map((key) => [key, 'UPDATED'])));
    return pulse;
  }

  /**
   * Sessions this kernel saw change at or after `since`, by its own clock, oldest change first,
   * for a subscriber catching up after a gap. What changed before this kernel started, it cannot
   * date: a `since` before its start has every session.
   */
  private changedSince(since: number): string[] {
    const changed: { key: string; at: number }[] = [];
    for (const session of this.catalog.all()) {
      const at = this.changedAt.get(session.key) ?? this.startedAt;
      if (at >= since && this.catalog.isVisible(session.key)) changed.push({ key: session.key, at });
    }
    return changed.sort((a, b) => a.at - b.at).map((c) => c.key);
  }

  private isListed(session: TranscriptSession): boolean {
    return session.parentKey === null && this.catalog.isVisible(session.key);
  }

  private find(host: string, key: string): TranscriptSession | null {
    if (host !== this.host.name) return null;
    const session = this.catalog.get(key);
    return session && this.catalog.isVisible(key) ? session : null;
  }

  /** The session, awake; callers read it before their next await, so it cannot fall asleep meanwhile. */
  private awake(host: string, key: string): Promise<TranscriptSession> {
    return this.keptAwake(this.require(host, key));
  }

  private async keptAwake(session: TranscriptSession): Promise<TranscriptSession> {
    // Another file's read may put it back to sleep between waking and here (during the first
    // index, any read does): try again.
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.tracker.wake(session.key);
      if (!session.sleeping) return session;
    }
    throw new Error(`session ${this.host.name}:${session.key} could not be kept awake`);
  }

  private require(host: string, key: string): TranscriptSession {
    const session = this.find(host, key);
    if (!session) throw new NotFoundError(`no session ${host}:${key} on this kernel`);
    return session;
  }
}

function defaultHostName(): string {
  return hostname().split('.')[0] || 'localhost';
}

function openArchive(dir: string, capBytes: number | null, log: (message: string) => void): TranscriptArchive | null {
  try {
    return TranscriptArchive.open({ dir, capBytes, log });
  } catch (err) {
    log(`the archive is off: ${dir} could not be opened (${(err as Error).message}); deleted transcripts will not be kept`);
    return null;
  }
}
