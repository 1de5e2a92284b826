import { bareAtom } from '../model/atom';
import type { AtomMeta, RewoundBranch } from '../model/types';
import { isOpenerAuthor } from './record';

// The active path, built one atom at a time in the order the lines were written, so a line
// appended to a live transcript and the same line read again after a restart land in the same
// place. Claude Code writes a graph (uuid → parentUuid) and the naive reading, "walk up from the
// newest line", loses what real transcripts hold beside that walk:
// - parallel tool calls (2.1.x): each result's parent is its own tool_use line and the chain goes
//   on from the last result only; the other results hang off earlier lines;
// - terminal notes (1.0.x): `!` commands, `#` memories and local slash commands written with the
//   file's first line as parent, hours into the conversation;
// - a new chain in the same file (`/clear`, plan mode's "clear context and implement");
// - rewinds: a prompt that forks above the newest line.
// So the path keeps a *tip* (the conversation's newest atom). A line that continues the tip, or
// anything after it, moves the tip. A line that hangs off an earlier atom is shown where it was
// written without moving the tip, unless it is a typed prompt: that is a rewind, and the atoms
// after the fork leave the path as a rewound branch kept for the API.

/** Where a line attaches, as the record graph sees it. */
export type Link =
  /**
   * no parent: the first line, or a new chain in the same file. `origin` is the parentless line
   * reached (2.x writes a SessionStart hook line first, and the first prompt hangs off it)
   */
  | { kind: 'root'; origin: string }
  /** a parent that was never written (or a cycle): the line goes on from the tip */
  | { kind: 'lost' }
  /** the nearest atom above, through lines that are not atoms (progress, attachments) */
  | { kind: 'atom'; atom: AtomMeta };

export const NEW_CHAIN = 'new_chain';

export class ActivePath {
  /** numbered 1…N: atoms[i].sequence === i + 1 */
  readonly atoms: AtomMeta[] = [];
  readonly branches: RewoundBranch[] = [];
  /** set when an atom left the path or moved: the session's generation goes up */
  rewritten = false;
  private tip = -1;
  /** atoms shown where they were written that do not continue the conversation */
  private readonly hanging = new Set<AtomMeta>();
  /** the first atom of each chain, by the parentless line it grew from */
  private readonly chains = new Map<string, AtomMeta>();

  add(atom: AtomMeta, link: Link): void {
    if (link.kind === 'root') return this.addRoot(atom, link.origin);
    if (link.kind === 'lost') return this.push(atom);
    const above = link.atom;
    const at = this.indexOf(above);
    if (at < 0) {
      // Above is on a rewound branch. A prompt typed there, or a compaction that names it as the
      // conversation's tail, takes the path back to it; anything else is shown, not continued.
      if ((isPrompt(atom) || atom.subtype === 'compact_boundary') && this.restore(above, atom)) return this.push(atom);
      return this.hang(atom);
    }
    const hangingAbove = this.hanging.has(above);
    if (hangingAbove && above.terminalNote && atom.terminalNote) return this.hang(atom); // a note's output
    if (at >= this.tip || hangingAbove) return this.push(atom);
    if (isPrompt(atom)) {
      this.rewind(at, atom);
      return this.push(atom);
    }
    this.hang(atom);
  }

  /** A line with no atom above it: a new chain, unless a chain already grew from the same line. */
  private addRoot(atom: AtomMeta, origin: string): void {
    const first = this.chains.get(origin);
    const at = first ? this.indexOf(first) : -1;
    if (at < 0) {
      if (this.atoms.length > 0) this.push(newChainDivider(atom));
      this.push(atom);
      this.chains.set(origin, atom);
    } else if (isPrompt(atom)) {
      // The first prompt typed again (2.x: off the same hook line): a rewind to the chain's start.
      this.rewind(at - 1, atom);
      this.push(atom);
      this.chains.set(origin, atom);
    } else {
      this.hang(atom);
    }
  }

  private indexOf(atom: AtomMeta): number {
    const i = atom.sequence - 1;
    return i >= 0 && this.atoms[i] === atom ? i : -1;
  }

  private push(atom: AtomMeta): void {
    this.append(atom);
    this.tip = this.atoms.length - 1;
  }

  private hang(atom: AtomMeta): void {
    this.append(atom);
    this.hanging.add(atom);
  }

  private append(atom: AtomMeta): void {
    this.atoms.push(atom);
    atom.sequence = this.atoms.length;
  }

  /** Puts a rewound branch back on the path up to `above`; what it replaces becomes a branch in turn. */
  private restore(above: AtomMeta, by: AtomMeta): boolean {
    const branch = this.branches.find((b) => b.atoms.includes(above));
    const at = branch?.forkedFrom ? this.atoms.findIndex((a) => a.uuid === branch.forkedFrom) : -1;
    if (!branch || (branch.forkedFrom && at < 0)) return false;
    const back = branch.atoms.splice(0, branch.atoms.indexOf(above) + 1);
    if (branch.atoms.length === 0) this.branches.splice(this.branches.indexOf(branch), 1);
    else branch.forkedFrom = above.uuid;
    this.rewind(at, back[0] ?? by);
    for (const atom of back) this.push(atom);
    return true;
  }

  /** A prompt forked off the atom at `at`: what came after it leaves the path, terminal notes excepted. */
  private rewind(at: number, prompt: AtomMeta): void {
    const after = this.atoms.splice(at + 1);
    const kept: AtomMeta[] = [];
    const dropped: AtomMeta[] = [];
    for (const atom of after) (this.hanging.has(atom) && atom.terminalNote ? kept : dropped).push(atom);
    for (const atom of dropped) {
      atom.sequence = 0;
      this.hanging.delete(atom);
    }
    // A branch rewound earlier from inside what is dropped now still hangs on the prompt that replaced it all.
    const gone = new Set(dropped.map((a) => a.uuid));
    for (const branch of this.branches) if (gone.has(branch.replacedBy)) branch.replacedBy = prompt.uuid;
    if (dropped.length > 0) {
      this.branches.push({ forkedFrom: this.atoms[at]?.uuid ?? null, replacedBy: prompt.uuid, atoms: dropped });
      this.rewritten = true;
    }
    this.tip = at;
    for (const atom of kept) this.append(atom);
  }
}

const isPrompt = (atom: AtomMeta): boolean => atom.type === 'user' && isOpenerAuthor(atom.author) && !atom.interrupt && !atom.terminalNote;

/** Loom's own marker between two chains of one file: no line of the transcript holds it. */
function newChainDivider(root: AtomMeta): AtomMeta {
  const divider = bareAtom(`${NEW_CHAIN}-${root.uuid}`, 'system', root.t, { fsid: root.fsid, file: '', offset: 0, length: 0 });
  divider.subtype = NEW_CHAIN;
  return divider;
}
