import type { AtomMeta, RewoundBranch, Segment, Turn } from '../model/types';
import { NEW_CHAIN } from './active-path';
import { isOpenerAuthor } from './record';

// Groups the active path into turns (trigger → end of the model's turn) and each turn into
// segments (input → next input). Evidence that a turn ended, strongest first: an assistant
// `stop_reason: "end_turn"`; a later system `turn_duration` / `stop_hook_summary` record; the
// user's interrupt line; and last the structure: the newest assistant atom left no tool_use
// unanswered and nothing came after it; or the harness answered the prompt itself (a local slash
// command such as /model or /mcp prints its output and the model never runs). Live hook state
// joins this list in a later layer.

/** a new chain in the same file (Loom's divider) ends whatever turn the old chain left open */
const END_RECORDS = new Set(['turn_duration', 'stop_hook_summary', NEW_CHAIN]);

interface OpenTurn extends Omit<Turn, 'rewoundBranches'> {
  pending: Set<string>;
  /** the last non-system atom was an assistant atom with no pending tool call */
  settled: boolean;
  hasAssistant: boolean;
}

export function buildTurns(path: AtomMeta[], rewound: RewoundBranch[] = []): Turn[] {
  const turns: OpenTurn[] = [];
  let current: OpenTurn | null = null;
  for (const atom of path) {
    const opener = atom.type === 'user' && isOpenerAuthor(atom.author) && !atom.interrupt;
    if (opener && current && !current.trigger && !current.hasAssistant) {
      // A preamble (the "Caveat:" line, a hook's note) leads into the prompt after it.
      current.trigger = atom;
    } else if (current?.ended && atom.type === 'assistant' && revivedBy(current.atoms[current.atoms.length - 1])) {
      // A harness notice (a background task finished) woke the model: the same work goes on.
      current.ended = false;
      current.settled = false;
    } else if (!current || (opener && closed(current)) || (current.ended && !foldsIntoEndedTurn(atom))) {
      current = openTurn(turns.length, opener ? atom : null, atom.t);
      turns.push(current);
    }
    addAtom(current, atom);
  }
  const branchesOf = new Map<string, RewoundBranch[]>();
  for (const branch of rewound) branchesOf.set(branch.replacedBy, [...(branchesOf.get(branch.replacedBy) ?? []), branch]);
  // most sessions were never rewound: then no atom is looked up
  return turns.map((turn) => finish(turn, branchesOf.size === 0 ? [] : turn.atoms.flatMap((a) => branchesOf.get(a.uuid) ?? [])));
}

function openTurn(index: number, trigger: AtomMeta | null, t: number): OpenTurn {
  return {
    id: '',
    index,
    trigger,
    t,
    end: t,
    ended: false,
    interrupted: false,
    atoms: [],
    segments: [],
    pending: new Set(),
    settled: false,
    hasAssistant: false,
  };
}

function addAtom(turn: OpenTurn, atom: AtomMeta): void {
  turn.atoms.push(atom);
  if (atom.t > turn.end) turn.end = atom.t;
  if (atom.type === 'assistant') {
    turn.hasAssistant = true;
    for (const id of atom.toolUses ?? []) turn.pending.add(id);
    if (atom.stopReason === 'end_turn') turn.ended = true;
    turn.settled = turn.pending.size === 0 && atom.stopReason !== 'tool_use';
  } else if (atom.type === 'user') {
    for (const id of atom.toolResults ?? []) turn.pending.delete(id);
    if (atom.interrupt) {
      turn.ended = true;
      turn.interrupted = true;
    } else if (atom.terminalNote) {
      // The terminal answers a `!` command, a `#` memory or a local slash command: the model may never run.
      if (!turn.hasAssistant) turn.settled = true;
    } else if (atom.author?.kind !== 'system') {
      turn.settled = false;
    } else if (turn.trigger && !turn.hasAssistant) {
      turn.settled = true;
    }
  } else if (atom.type === 'system') {
    if (atom.subtype && END_RECORDS.has(atom.subtype)) turn.ended = true;
    else if (turn.trigger && !turn.hasAssistant) turn.settled = true;
  }
}

const closed = (turn: OpenTurn): boolean => turn.ended || turn.settled || (!turn.hasAssistant && !turn.trigger);

/** A system-authored user line (a `<task-notification>`, say) the model answers revives its turn. */
const revivedBy = (last: AtomMeta | undefined): boolean => !!last && last.type === 'user' && last.author?.kind === 'system' && !last.interrupt;

/** After a turn ended, harness lines (hook summaries, tool output, notices) still belong to it. */
const foldsIntoEndedTurn = (atom: AtomMeta): boolean => atom.type === 'system' || (atom.type === 'user' && !isOpenerAuthor(atom.author));

function finish(turn: OpenTurn, rewoundBranches: RewoundBranch[]): Turn {
  const anchor = turn.trigger ?? turn.atoms[0];
  return {
    id: anchor.uuid,
    index: turn.index,
    trigger: turn.trigger,
    t: turn.trigger?.t ?? turn.t,
    end: turn.end,
    ended: turn.ended || turn.settled,
    interrupted: turn.interrupted,
    atoms: turn.atoms,
    segments: segmentsOf(turn.atoms),
    rewoundBranches,
  };
}

/** A segment starts at each input: the trigger and every prompt that arrived mid-turn. */
function segmentsOf(atoms: AtomMeta[]): Segment[] {
  const segments: Segment[] = [];
  for (const atom of atoms) {
    const input = atom.type === 'user' && isOpenerAuthor(atom.author) && !atom.interrupt;
    if (input || segments.length === 0) {
      segments.push({ index: segments.length, input: input ? atom : null, t: atom.t, end: atom.t, atomCount: 0 });
    }
    const segment = segments[segments.length - 1];
    segment.atomCount++;
    if (atom.t > segment.end) segment.end = atom.t;
  }
  return segments;
}
