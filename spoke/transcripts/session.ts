import type { AtomMeta, FileRole, ParseError, TranscriptFile, Turn } from '../model/types';
import type { GraphRecord, TitleRecord } from './record';
import { RecordGraph } from './record-graph';
import { buildTurns } from './turns';

// One session as rebuilt from its transcript file(s): the graph of its lines, its active path
// (numbered atoms), and the header facts lists show. Turns are derived on demand and cached.

const MAX_PARSE_ERRORS = 200;

export class TranscriptSession {
  readonly graph = new RecordGraph();
  readonly files = new Map<string, TranscriptFile>();
  readonly parseErrors: ParseError[] = [];
  readonly recordTypes = new Map<string, number>();
  readonly models = new Set<string>();
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

  private path: AtomMeta[] = [];
  private pathStale = false;
  private turnCache: { version: number; turns: Turn[] } | null = null;
  private toolCache: { version: number; names: Map<string, string> } | null = null;

  constructor(
    readonly key: string,
    readonly project: string,
  ) {}

  addFile(path: string, fsid: string, role: FileRole): TranscriptFile {
    let file = this.files.get(path);
    if (!file) {
      file = { path, fsid, role, bytes: 0, lines: 0, rereads: 0 };
      if (this.files.size > 0 && this.path.length > 0) this.epoch++;
      this.files.set(path, file);
      this.version++;
    }
    return file;
  }

  addRecord(record: GraphRecord): void {
    const node = this.graph.add(record);
    this.version++;
    if (record.cwd) this.cwd = record.cwd;
    if (record.gitBranch) this.gitBranch = record.gitBranch;
    const atom = record.atom;
    if (!atom) return;
    if (atom.t > this.updatedAt) this.updatedAt = atom.t;
    if (atom.model && atom.model !== '<synthetic>') this.models.add(atom.model);
    if (this.pathStale) return;
    // The common case: the line continues the current leaf, so the path grows by one atom
    // without walking the graph again.
    const above = this.graph.atomAbove(node);
    const leaf = this.path[this.path.length - 1];
    if ((leaf && above?.uuid === leaf.uuid) || (!leaf && !above && !record.boundary && !record.parent)) {
      atom.sequence = this.path.length + 1;
      this.path.push(atom);
    } else {
      this.pathStale = true;
    }
  }

  addTitle(record: TitleRecord): void {
    if (record.custom) this.customTitle = record.title;
    else this.aiTitle = record.title;
    this.version++;
  }

  countRecord(type: string): void {
    this.recordTypes.set(type, (this.recordTypes.get(type) ?? 0) + 1);
  }

  addParseError(error: ParseError): void {
    if (this.parseErrors.length < MAX_PARSE_ERRORS) this.parseErrors.push(error);
    this.version++;
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
    for (let i = this.parseErrors.length - 1; i >= 0; i--) if (this.parseErrors[i].file === path) this.parseErrors.splice(i, 1);
    this.pathStale = true;
    this.version++;
  }

  /** The active path, numbered 1…N. */
  activePath(): AtomMeta[] {
    if (this.pathStale) this.rewalk();
    return this.path;
  }

  turns(): Turn[] {
    const path = this.activePath();
    if (this.turnCache?.version !== this.version) this.turnCache = { version: this.version, turns: buildTurns(path) };
    return this.turnCache.turns;
  }

  /** Tool names by tool_use id over the active path, to pair each result with its call. */
  toolNames(): Map<string, string> {
    const path = this.activePath();
    if (this.toolCache?.version !== this.version) {
      const names = new Map<string, string>();
      for (const atom of path) for (const [id, name] of Object.entries(atom.toolNames ?? {})) names.set(id, name);
      this.toolCache = { version: this.version, names };
    }
    return this.toolCache.names;
  }

  private rewalk(): void {
    const atoms = this.graph.activePath();
    const old = this.path;
    let same = 0;
    while (same < old.length && same < atoms.length && old[same].uuid === atoms[same].uuid) same++;
    if (same < old.length) this.generation++;
    for (let i = same; i < old.length; i++) old[i].sequence = 0;
    for (let i = same; i < atoms.length; i++) atoms[i].sequence = i + 1;
    this.path = atoms;
    this.pathStale = false;
  }
}
