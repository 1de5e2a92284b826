import { type Dispatch, type SetStateAction, useEffect, useMemo, useRef } from 'react';
import { type Row, rowShowing } from './rows';
import type { Jump, LineHit } from './TranscriptView';
import type { TranscriptFeed, TranscriptState } from './transcript-feed';

/**
 * `?at=<sequence>`: loads back to the line, then jumps to the row that shows it (a tool's result
 * is shown in its call's row), once per visit of the link. `missing` when the transcript, read
 * back that far, has no such line.
 */
export function useLineLink(
  at: number | null,
  visit: string,
  transcript: TranscriptState & { feed: TranscriptFeed },
  rows: readonly Row[],
  setJump: Dispatch<SetStateAction<Jump | null>>,
): { hit: LineHit | null; missing: boolean } {
  const { atoms, ready, hasOlder, feed } = transcript;
  const atom = useMemo(() => (at === null ? undefined : atoms.find((a) => a.sequence === at)), [atoms, at]);
  const hit = useMemo(() => {
    const row = atom && rowShowing(rows, atom);
    return atom && row ? { row: row.atom.sequence, atomId: atom.id } : null;
  }, [rows, atom]);

  useEffect(() => {
    if (at !== null && ready) void feed.loadUntil(at);
  }, [at, visit, ready, feed]);

  const jumpedFor = useRef<string | null>(null);
  useEffect(() => {
    if (!hit || jumpedFor.current === visit) return;
    jumpedFor.current = visit;
    setJump({ sequence: hit.row, nonce: Date.now() });
  }, [hit, visit, setJump]);

  const missing = at !== null && ready && !atom && atoms.length > 0 && (atoms[0].sequence <= at || !hasOlder);
  return { hit, missing };
}
