import type { Placed } from './held-text';
import type { Block, ChatAtom, ToolResultBlock } from './types';

// Which atoms get a row, and what each row shows. A tool call and its result are one widget in
// the row of the call, so a result whose call we hold is not shown again, and a user atom that
// only carries such results has no row at all.

export type RowKind = 'message' | 'compaction' | 'new-chain' | 'idle';

/** A block with its place ("show all" reads it again from there). */
export interface RowBlock extends Placed<Block> {
  /** a tool call's result, once it has arrived (in the user line that answered the call) */
  result?: Placed<ToolResultBlock>;
}

export interface Row {
  kind: RowKind;
  atom: ChatAtom;
  blocks: RowBlock[];
  /** first row of a run by the same speaker: it says who speaks */
  showsSpeaker: boolean;
}

export function buildRows(atoms: readonly ChatAtom[]): Row[] {
  const calls = new Set<string>();
  const results = new Map<string, Placed<ToolResultBlock>>();
  for (const atom of atoms) {
    atom.content.forEach((block, index) => {
      if (block.__typename === 'ToolUseBlock') calls.add(block.toolUseId);
      else if (block.__typename === 'ToolResultBlock') results.set(block.toolUseId, { block, at: { atomId: atom.id, index } });
    });
  }

  const rows: Row[] = [];
  let lastSpeaker = '';
  for (const atom of atoms) {
    const kind = rowKind(atom);
    const blocks: RowBlock[] = [];
    atom.content.forEach((block, index) => {
      if (block.__typename === 'ToolResultBlock' && calls.has(block.toolUseId)) return;
      const at = { atomId: atom.id, index };
      blocks.push(block.__typename === 'ToolUseBlock' ? { block, at, result: results.get(block.toolUseId) } : { block, at });
    });
    if (kind === 'message' && blocks.length === 0) continue; // bookkeeping lines, or results shown with their calls
    const speaker = kind === 'message' ? speakerOf(atom) : '';
    rows.push({ kind, atom, blocks, showsSpeaker: speaker !== lastSpeaker });
    lastSpeaker = speaker;
  }
  return rows;
}

/**
 * The row that shows an atom: its own, or the row of the call whose result it carries; else the
 * first row after it (an atom without a row of its own).
 */
export function rowShowing(rows: readonly Row[], atom: { id: string; sequence: number }): Row | undefined {
  return rows.find((r) => r.atom.id === atom.id || r.blocks.some((b) => b.result?.at.atomId === atom.id)) ?? rows.find((r) => r.atom.sequence >= atom.sequence);
}

/** who speaks in a message row: claude, a user line's author, or the harness's tool output */
export function speakerOf(atom: ChatAtom): string {
  if (atom.type === 'ASSISTANT') return 'claude';
  if (atom.type === 'USER') return atom.author?.kind.toLowerCase() ?? 'tool';
  return atom.type.toLowerCase();
}

function rowKind(atom: ChatAtom): RowKind {
  if (atom.type === 'IDLE') return 'idle';
  if (atom.type === 'SYSTEM' && atom.subtype === 'compact_boundary') return 'compaction';
  if (atom.type === 'SYSTEM' && atom.subtype === 'new_chain') return 'new-chain';
  return 'message';
}
