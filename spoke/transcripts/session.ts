import { judgeGoals } from '../goals/judge';
import { StoredGoals } from '../goals/stored-goals';
import type { Goal } from '../model/goal';
import type { AtomMeta, FileRole, ParseError, RewoundBranch, TranscriptFile, Turn } from '../model/types';
import { MessageLedger } from '../usage/ledger';
import { ActivePath } from './active-path';
import type { GraphRecord, TitleRecord } from './record';
import { RecordGraph } from './record-graph';
import { buildTurns } from './turns';

// One session as rebuilt from its transcript file(s): the graph of its lines, its active path
// (numbered atoms), and the header facts lists show. Turns are derived on demand and cached.
//
// A session is either awake (graph in memory) or asleep (only its facts): memory holds the
// graphs of the sessions in use, not of every session on the machine. Waking one means reading
// its files again up to where the index had read them (the tracker does that).

const MAX_PARSE_ERRORS = 200;

/** What a sleeping session still knows: enough for lists, headers and a warm restart. */
export interface SleepFacts {
  atomCount: number;
  turnCount: number;
  startedAt: number;
  name: string;
  /**
   * the uuid of its path's last atom: a `summary` naming it names the session at once, asleep or
   * not, as no atom lies further along (SessionCatalog.named)
   */
  leaf: string | null;
  /** as the transcript shows them (live state is applied when read) */
  goals: StoredGoals;
}

/** What is counted from a session's lines (kept while it sleeps). */
type LineCounts = Pick<TranscriptSession, 'parseErrors' | 'models' | 'usage' | 'subagentUsage'>;

const noCounts = (): LineCounts => ({
  parseErrors: [],
  models: new Set(),
  usage: new MessageLedger(),
  subagentUsage: new MessageLedger(),
});

export class TranscriptSession {
  readonly files = new Map<string, TranscriptFile>();
  parseErrors: ParseError[] = [];
  models = new Set<string>();
  /** every API message in the session's files (rewound branches too: they were billed), once each */
  usage = new MessageLedger();
  /** subagents' API messages seen inside this session's progress records */
  subagentUsage = new MessageLedger();
  parentKey: string | null = null;
  cwd: string | null = null;
  gitBranch: string | null = null;
  customTitle: string | null = null;
  aiTitle: string | null = null;
  /** bumps when the active path is rewritten (atoms dropped or reordered) */
  generation = 0;
  /** bumps when the session's file set changes */
  epoch = 0;
  /** bumps on every change, for caches */
  version = 0;
  updatedAt = 0;
  /** set while asleep */
  sleeping: SleepFacts | null = null;
  /** set while its files are being read again to wake it */
  waking = false;

  /**
   * While waking: the counts being rebuilt from the lines read again. Readers see the settled
   * ones until the wake is done (a header asking for usage mid-wake would see part of it).
   */
  private rebuilding: LineCounts | null = null;
  private graph = new RecordGraph();
  private path = new ActivePath();
  private pathStale = false;
  private turnCache: { version: number; turns: Turn[] } | null = null;
  private toolCache: { version: number; names: Map<string, string> } | null = null;
  private goalCache: { version: number; goals: StoredGoals } | null = null;

  constructor(
    readonly key: string,
    readonly project: string,
  ) {}

  addFile(path: string, fsid: string, role: FileRole): TranscriptFile {
    let file = this.files.get(path);
    if (!file) {
      file = { path, fsid, role, bytes: 0, lines: 0, rereads: 0, archived: false };
      if (this.files.size > 0 && this.atomCount() > 0) this.epoch++;
      this.files.set(path, file);
      this.version++;
    }
    return file;
  }

  addRecord(record: GraphRecord): void {
    const node = this.graph.add(record);
    if (!node) return; // a copy of a line another file holds
    this.version++;
    // Waking reads again lines already read: what they set is settled, and re-setting it line by
    // line would show an older value until the wake is done.
    if (!this.waking) {
      if (record.cwd) this.cwd = record.cwd;
      if (record.gitBranch) this.gitBranch = record.gitBranch;
    }
    const counts = this.counts();
    if (record.subagentUsage) counts.subagentUsage.add(record.subagentUsage);
    const atom = record.atom;
    if (!atom) return;
    if (atom.usage) counts.usage.add(atom.usage);
    if (atom.t > this.updatedAt) this.updatedAt = atom.t;
    if (atom.model && atom.model !== '<synthetic>') counts.models.add(atom.model);
    // A line of the newest file goes on the path as it arrives; one of an older file (two files
    // of one session written at once) waits for a replay in order.
    if (this.pathStale) return;
    if (!this.graph.isLatestFile(record.file)) {
      this.pathStale = true;
      return;
    }
    this.path.add(atom, this.graph.link(node));
    if (this.path.rewritten) {
      this.path.rewritten = false;
      // Waking reads again what was read before: its rewinds were counted when they happened.
      if (!this.waking) this.generation++;
    }
  }

  addTitle(record: TitleRecord): void {
    if (this.waking) return; // read before: the title it set is the settled one
    if (record.custom) this.customTitle = record.title;
    else this.aiTitle = record.title;
    this.version++;
  }

  addParseError(error: ParseError): void {
    const { parseErrors } = this.counts();
    if (parseErrors.length < MAX_PARSE_ERRORS) parseErrors.push(error);
    this.version++;
  }

  private counts(): LineCounts {
    return this.rebuilding ?? this;
  }

  /** The file is being read again from the start: forget what it said. */
  restartFile(path: string): void {
    this.graph.dropFile(path);
    const file = this.files.get(path);
    if (file) {
      file.rereads++;
      file.bytes = 0;
      file.lines = 0;
    }
    this.parseErrors = this.parseErrors.filter((e) => e.file !== path);
    this.pathStale = true;
    this.version++;
  }

  atomCount(): number {
    return this.sleeping ? this.sleeping.atomCount : this.activePath().length;
  }

  /** The active path, numbered 1…N. Only an awake session has one. */
  activePath(): AtomMeta[] {
    if (this.sleeping) throw new Error(`session ${this.key} is asleep: wake it before reading its path`);
    if (this.pathStale) this.replay();
    return this.path.atoms;
  }

  /** What rewinds took off the path, oldest first. */
  rewoundBranches(): RewoundBranch[] {
    this.activePath();
    return this.path.branches;
  }

  turns(): Turn[] {
    const path = this.activePath();
    if (this.turnCache?.version !== this.version) this.turnCache = { version: this.version, turns: buildTurns(path, this.path.branches) };
    return this.turnCache.turns;
  }

  /**
   * The session's goals as its transcript shows them, asleep or awake; null when it sleeps and its
   * stored goals could not be read (waking it judges them again).
   */
  goals(): Goal[] | null {
    return this.storedGoals().get();
  }

  /** Its goals as the index cache keeps them (judged again only when the session changed). */
  storedGoals(): StoredGoals {
    if (this.sleeping) return this.sleeping.goals;
    const turns = this.turns();
    if (this.goalCache?.version !== this.version) this.goalCache = { version: this.version, goals: StoredGoals.of(judgeGoals(turns)) };
    return this.goalCache.goals;
  }

  /** Tool names by tool_use id over the active path and rewound branches, to pair each result with its call. */
  toolNames(): Map<string, string> {
    const path = this.activePath();
    if (this.toolCache?.version !== this.version) {
      const names = new Map<string, string>();
      const rewound = this.path.branches.flatMap((b) => b.atoms);
      for (const atom of [...rewound, ...path]) {
        const ids = atom.toolUses ?? [];
        for (let i = 0; i < ids.length; i++) names.set(ids[i], atom.toolNames![i]);
      }
      this.toolCache = { version: this.version, names };
    }
    return this.toolCache.names;
  }

  /** Whether a line with this uuid is in its graph (an awake session's). */
  hasLine(uuid: string): boolean {
    return this.graph.has(uuid);
  }

  /** Drops the graph, keeping the facts lists need. */
  sleep(name: string): void {
    if (this.sleeping) return;
    const path = this.activePath();
    this.sleeping = {
      atomCount: path.length,
      turnCount: this.turns().length,
      startedAt: path[0]?.t ?? 0,
      name,
      leaf: path.at(-1)?.uuid ?? null,
      goals: this.storedGoals(),
    };
    this.dropGraph();
  }

  private dropGraph(): void {
    this.graph = new RecordGraph();
    this.path = new ActivePath();
    this.turnCache = null;
    this.toolCache = null;
    this.goalCache = null;
  }

  /** Starts reading the files again from scratch; the same lines rebuild the same state. */
  beginWaking(): void {
    this.waking = true;
    this.graph = new RecordGraph();
    this.path = new ActivePath();
    this.pathStale = false;
    this.rebuilding = noCounts();
  }

  /**
   * The wake is done: the counts it rebuilt replace the settled ones. When reading failed part
   * way, a sleeping session stays asleep with what it had (the next read wakes it again) rather
   * than waking with part of its lines.
   */
  endWaking(complete: boolean): void {
    if (!this.waking) return;
    const counts = this.rebuilding;
    this.rebuilding = null;
    this.waking = false;
    if (!complete) {
      if (this.sleeping) this.dropGraph();
      return;
    }
    if (counts) Object.assign(this, counts);
    this.sleeping = null;
  }

  /** Builds the path again from every line in order; the generation goes up when atoms left it or moved. */
  private replay(): void {
    const old = this.path.atoms;
    for (const atom of old) atom.sequence = 0;
    const path = new ActivePath();
    for (const node of this.graph.inOrder()) if (node.atom) path.add(node.atom, this.graph.link(node));
    let same = 0;
    while (same < old.length && same < path.atoms.length && old[same].uuid === path.atoms[same].uuid) same++;
    if (same < old.length && !this.waking) this.generation++;
    this.path = path;
    this.path.rewritten = false;
    this.pathStale = false;
  }
}
