import type { ChatAtom } from './types';

/**
 * Adds `incoming` to `held`, keyed by sequence, oldest first. Idempotent: an atom already held
 * is kept as it is (a replayed frame after a reconnect changes nothing), and when nothing is
 * new the same array comes back, so React sees no change.
 */
export function mergeAtoms(held: readonly ChatAtom[], incoming: readonly ChatAtom[]): readonly ChatAtom[] {
  const bySequence = new Map(held.map((a) => [a.sequence, a]));
  let added = false;
  for (const atom of incoming) {
    if (bySequence.has(atom.sequence)) continue;
    bySequence.set(atom.sequence, atom);
    added = true;
  }
  if (!added) return held;
  return [...bySequence.values()].sort((a, b) => a.sequence - b.sequence);
}
