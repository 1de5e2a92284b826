import type { AtomMeta } from '../model/types';
import type { GraphRecord } from './record';

// The uuid/parentUuid graph of one session's lines, and the walk that finds its active path.

export interface GraphNode {
  record: GraphRecord;
  /** arrival order, which is file order within a file */
  order: number;
}

export class RecordGraph {
  private readonly byUuid = new Map<string, GraphNode>();
  private nodes: GraphNode[] = [];
  private nextOrder = 0;

  get size(): number {
    return this.nodes.length;
  }

  add(record: GraphRecord): GraphNode {
    const node = { record, order: this.nextOrder++ };
    this.byUuid.set(record.uuid, node);
    this.nodes.push(node);
    return node;
  }

  has(uuid: string): boolean {
    return this.byUuid.has(uuid);
  }

  /** Forgets every line of one file (it is being read again from the start). */
  dropFile(file: string): void {
    this.nodes = this.nodes.filter((n) => n.record.file !== file);
    this.byUuid.clear();
    for (const n of this.nodes) this.byUuid.set(n.record.uuid, n);
  }

  /** The newest message atom: where the walk starts. */
  leaf(): GraphNode | null {
    for (let i = this.nodes.length - 1; i >= 0; i--) if (this.nodes[i].record.atom) return this.nodes[i];
    return null;
  }

  /** The nearest atom above a node, walking through non-atom lines (progress, attachments). */
  atomAbove(node: GraphNode): GraphNode | null {
    const seen = new Set<string>();
    let n = this.parentOf(node);
    while (n && !n.record.atom && !seen.has(n.record.uuid)) {
      seen.add(n.record.uuid);
      n = this.parentOf(n);
    }
    return n?.record.atom ? n : null;
  }

  /** The active path: atoms from the root to the newest message, rewound branches left out. */
  activePath(): AtomMeta[] {
    const path: AtomMeta[] = [];
    const seen = new Set<string>();
    let n = this.leaf();
    while (n && !seen.has(n.record.uuid)) {
      seen.add(n.record.uuid);
      if (n.record.atom) path.push(n.record.atom);
      n = this.parentOf(n);
    }
    return path.reverse();
  }

  /**
   * A line's parent. `/clear` writes a line with no parent, so the walk ends there. A
   * compact_boundary has no parentUuid either, but the history before it is still the
   * session's: follow logicalParentUuid; Claude Code sometimes names a uuid it never wrote, so
   * then the preserved segment's tail; failing both, the last main-chain message before the
   * boundary in file order.
   */
  private parentOf(node: GraphNode): GraphNode | null {
    const r = node.record;
    if (r.parent) return this.byUuid.get(r.parent) ?? null;
    if (!r.compactBoundary) return null;
    const logical = r.logicalParent ? this.byUuid.get(r.logicalParent) : undefined;
    if (logical) return logical;
    const tail = r.preservedTail ? this.byUuid.get(r.preservedTail) : undefined;
    if (tail) return tail;
    return this.lastMessageBefore(node);
  }

  private lastMessageBefore(node: GraphNode): GraphNode | null {
    const index = this.nodes.indexOf(node);
    for (let i = index - 1; i >= 0; i--) {
      const atom = this.nodes[i].record.atom;
      if (atom && (atom.type === 'user' || atom.type === 'assistant')) return this.nodes[i];
    }
    return null;
  }
}
