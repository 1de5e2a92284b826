import { bareAtom } from '../model/atom';
import type { AtomMeta, Turn } from '../model/types';

// Idle spans, from the hooks, as atoms in the turns they interrupt: the model stopped (a Stop
// hook, after an assistant line), then the same turn went on (a harness notice woke it). An idle
// atom runs from the idle event to the next atom of the turn. Hook times have one-second
// resolution, so an idle event stamped in the same second as the assistant line before it still
// counts as after it.

const HOOK_RESOLUTION_MS = 1000;

export function withIdleAtoms(turns: Turn[], idleTimes: number[]): Turn[] {
  if (idleTimes.length === 0) return turns;
  return turns.map((turn) => {
    const atoms: AtomMeta[] = [];
    let found = false;
    turn.atoms.forEach((atom, i) => {
      atoms.push(atom);
      const next = turn.atoms[i + 1];
      if (!next || atom.type !== 'assistant') return;
      const start = idleTimes.find((s) => s > atom.t - HOOK_RESOLUTION_MS && s < next.t);
      if (start === undefined) return;
      atoms.push(idleAtom(Math.max(start, atom.t), next.t));
      found = true;
    });
    return found ? { ...turn, atoms } : turn;
  });
}

function idleAtom(t: number, until: number): AtomMeta {
  // From the hooks, not a transcript line: no file to point at.
  return { ...bareAtom(`idle-${t}`, 'idle', t, { fsid: '', file: '', offset: 0, length: 0 }), idleUntil: until };
}
