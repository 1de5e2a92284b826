import type { AtomMeta } from '../model/types';
import type { Link } from './active-path';
import type { Boundary, GraphRecord } from './record';

// The uuid/parentUuid graph of one session's lines: where each line attaches, and the order the
// active path replays them in. A session may span files (a resumed session launched through
// `loom run`): a file whose chain starts fresh continues the file before it, in the order the
// files began (files that began in the same millisecond in the order they were read).

/** What the graph keeps of a line: its links, and its atom when it is one. */
export interface GraphNode {
  uuid: string;
  parent: string | null;
  file: string;
  atom: AtomMeta | null;
  boundary: Boundary | null;
  /** place in the order the path is built in: a parent must come before its child */
  order: number;
  /** place in the order the graph read its lines: within a file, the order they were written */
  readonly read: number;
}

const MAX_LINKS_BETWEEN_ATOMS = 10_000;

interface FileSpan {
  first: GraphNode;
  /** time of the file's first atom: files are ordered by it */
  start: number;
  lastAtom: GraphNode | null;
}

/** The order files take in the path: by the time they began, files that began together in the order they were read. */
const beganBefore = (a: FileSpan, b: FileSpan): boolean => a.start < b.start || (a.start === b.start && a.first.read < b.first.read);

export class RecordGraph {
  private readonly byUuid = new Map<string, GraphNode>();
  private nodes: GraphNode[] = [];
  private files = new Map<string, FileSpan>();
  /**
   * Copies of held lines in other files (1.0.x `--resume`), in the order read: when the file
   * holding a line is read again from its start, the copy another file still has takes its place.
   */
  private readonly copies = new Map<string, GraphNode[]>();
  private nextOrder = 0;
  private nextRead = 0;

  get size(): number {
    return this.nodes.length;
  }

  /**
   * Adds a line; null when its uuid is already held: 1.0.x `--resume` starts the new file with a
   * copy of the old one's lines, and the first read is the line (the copy is kept aside).
   */
  add(record: GraphRecord): GraphNode | null {
    const held = this.byUuid.get(record.uuid);
    if (held) {
      if (held.file !== record.file) this.keepCopy(this.nodeOf(record));
      return null;
    }
    const node = this.nodeOf(record);
    this.byUuid.set(record.uuid, node);
    this.nodes.push(node);
    this.span(node);
    return node;
  }

  private nodeOf(record: GraphRecord): GraphNode {
    // The parent's uuid string is already held by the parent's node: share it, drop the copy. The
    // parent is most often the line before, compared without hashing the uuid for the map.
    const named = record.parent || null;
    const last = this.nodes.at(-1)?.uuid;
    let parent = named;
    if (named !== null) parent = named === last ? last : (this.byUuid.get(named)?.uuid ?? named);
    return { uuid: record.uuid, parent, file: record.file, atom: record.atom, boundary: record.boundary, order: this.nextOrder++, read: this.nextRead++ };
  }

  private keepCopy(copy: GraphNode): void {
    const copies = this.copies.get(copy.uuid);
    if (copies === undefined) this.copies.set(copy.uuid, [copy]);
    else if (!copies.some((c) => c.file === copy.file)) copies.push(copy);
  }

  private span(node: GraphNode): void {
    let span = this.files.get(node.file);
    if (!span) {
      span = { first: node, start: Infinity, lastAtom: null };
      this.files.set(node.file, span);
    }
    if (node.atom) {
      if (span.start === Infinity) span.start = node.atom.t;
      span.lastAtom = node;
    }
  }

  has(uuid: string): boolean {
    return this.byUuid.has(uuid);
  }

  /**
   * Forgets every line of one file (it is being read again from the start). A line another file
   * has a copy of stays, as that file's.
   */
  dropFile(file: string): void {
    const kept: GraphNode[] = [];
    const restored: GraphNode[] = [];
    for (const n of this.nodes) {
      if (n.file !== file) kept.push(n);
      else {
        const copy = this.copies.get(n.uuid)?.find((c) => c.file !== file);
        if (copy) restored.push(copy);
      }
    }
    const back = new Set(restored);
    for (const [uuid, copies] of this.copies) {
      const left = copies.filter((c) => c.file !== file && !back.has(c));
      if (left.length > 0) this.copies.set(uuid, left);
      else this.copies.delete(uuid);
    }
    // each file's lines in the order they were written, restored copies among them
    this.nodes = restored.length > 0 ? [...kept, ...restored].sort((a, b) => a.read - b.read) : kept;
    this.byUuid.clear();
    this.files = new Map();
    for (const n of this.nodes) {
      this.byUuid.set(n.uuid, n);
      this.span(n);
    }
  }

  /**
   * Every line in the order the path is built in: files in the order they began (ties in the
   * order they were read), each file's lines in the order they were written. Numbers them so.
   */
  inOrder(): GraphNode[] {
    let ordered = this.nodes;
    if (this.files.size > 1) {
      const rank = new Map([...this.files].sort((a, b) => (beganBefore(a[1], b[1]) ? -1 : 1)).map(([file], i) => [file, i]));
      ordered = this.nodes
        .map((n, i) => ({ n, i }))
        .sort((a, b) => rank.get(a.n.file)! - rank.get(b.n.file)! || a.i - b.i)
        .map((x) => x.n);
    }
    ordered.forEach((n, i) => {
      n.order = i;
    });
    this.nextOrder = ordered.length;
    return ordered;
  }

  /** True when a line of this file comes last in that order: appending it needs no replay. */
  isLatestFile(file: string): boolean {
    if (this.files.size < 2) return true;
    const own = this.files.get(file);
    if (!own) return true;
    for (const span of this.files.values()) if (span !== own && span.start !== Infinity && beganBefore(own, span)) return false;
    return true;
  }

  /** Where a line attaches: the nearest atom above it, walking through lines that are not atoms. */
  link(node: GraphNode): Link {
    // Runs once per line: a step cap instead of a visited set guards against parent cycles.
    let current = node;
    for (let steps = 0; steps < MAX_LINKS_BETWEEN_ATOMS; steps++) {
      const parent = this.parentOf(current);
      if (parent === 'lost') return { kind: 'lost' };
      if (parent === null) return { kind: 'root', origin: current.uuid };
      if (parent.atom) return { kind: 'atom', atom: parent.atom };
      current = parent;
    }
    return { kind: 'lost' };
  }

  /**
   * A line's parent. `/clear` writes a line with no parent, so the walk ends there. A
   * compact_boundary has no parentUuid either, but the history before it is still the
   * session's: follow logicalParentUuid; Claude Code sometimes names a uuid it never wrote, so
   * then the preserved segment's tail; failing both, the last main-chain message before the
   * boundary in file order.
   */
  private parentOf(node: GraphNode): GraphNode | 'lost' | null {
    if (node.parent) return this.before(node, node.parent) ?? this.previousFileLeaf(node) ?? 'lost';
    const boundary = node.boundary;
    if (!boundary) return this.previousFileLeaf(node);
    return this.before(node, boundary.logicalParent) ?? this.before(node, boundary.preservedTail) ?? this.lastMessageBefore(node);
  }

  /**
   * The line named, if it came before: a parent written after its child (never seen in Claude
   * Code's files, but possible in a damaged one) would place the child differently when it
   * arrives live than when the file is read again, so it counts as never written.
   */
  private before(node: GraphNode, uuid: string | null): GraphNode | undefined {
    const named = uuid ? this.byUuid.get(uuid) : undefined;
    return named && named.order < node.order ? named : undefined;
  }

  /** The first line of a file whose chain starts fresh continues the file that began before it. */
  private previousFileLeaf(node: GraphNode): GraphNode | null {
    const span = this.files.get(node.file);
    if (this.files.size < 2 || span?.first !== node) return null;
    let previous: FileSpan | null = null;
    for (const other of this.files.values()) {
      if (other !== span && other.lastAtom && beganBefore(other, span) && (!previous || beganBefore(previous, other))) previous = other;
    }
    return previous?.lastAtom ?? null;
  }

  private lastMessageBefore(node: GraphNode): GraphNode | null {
    const index = this.nodes.indexOf(node);
    for (let i = index - 1; i >= 0; i--) {
      const atom = this.nodes[i].atom;
      if (atom && (atom.type === 'user' || atom.type === 'assistant')) return this.nodes[i];
    }
    return null;
  }
}
