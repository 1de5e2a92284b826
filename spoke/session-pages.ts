import { BadInputError, type EventFilter, type TranscriptPage } from './model/source';
import type { AtomMeta, Turn } from './model/types';

// Bounded reads of one session's active path: pages walking backwards from the newest atom,
// and filtered event rows. Both refuse limits outside 1…MAX_LIMIT, so no request can ask for
// a whole gigabyte session at once.

export const MAX_LIMIT = 1000;

function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new BadInputError(`"limit" must be a whole number from 1 to ${MAX_LIMIT}, got ${limit}`);
  }
}

/** The `limit` atoms before `beforeSequence` (or the newest), oldest first. */
export function transcriptPage(path: AtomMeta[], limit: number, beforeSequence: number | null): Omit<TranscriptPage, 'epoch' | 'generation'> {
  checkLimit(limit);
  if (beforeSequence !== null && (!Number.isInteger(beforeSequence) || beforeSequence < 1)) {
    throw new BadInputError(`"beforeSequence" must be a sequence (1 or more), got ${beforeSequence}`);
  }
  const end = beforeSequence === null ? path.length : Math.min(beforeSequence - 1, path.length);
  const start = Math.max(0, end - limit);
  return {
    entries: path.slice(start, end),
    maxSequence: path.length,
    hasOlder: start > 0,
    nextBeforeSequence: start > 0 ? start + 1 : null,
  };
}

/** The newest `limit` atoms matching the filter, oldest first. */
export function eventRows(path: AtomMeta[], turns: () => Turn[], filter: EventFilter): AtomMeta[] {
  checkLimit(filter.limit);
  let from = filter.afterSequence ?? 0;
  let to = path.length;
  if (filter.turnAnchor !== null) {
    const turn = turns().find((t) => t.id === filter.turnAnchor);
    if (!turn) return [];
    from = Math.max(from, turn.atoms[0].sequence - 1);
    to = Math.min(to, turn.atoms[turn.atoms.length - 1].sequence);
  }
  const rows: AtomMeta[] = [];
  for (let i = to - 1; i >= from && rows.length < filter.limit; i--) {
    const atom = path[i];
    if (filter.type !== null && atom.type !== filter.type) continue;
    if (filter.since !== null && atom.t < filter.since) continue;
    rows.push(atom);
  }
  return rows.reverse();
}
