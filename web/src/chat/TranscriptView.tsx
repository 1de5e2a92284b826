import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef } from 'react';
import { AtomRow } from './AtomRow';
import { RewoundBranches } from './RewoundBranches';
import type { Row } from './rows';
import type { RewoundSummary } from './types';

/** A request to bring one sequence into view; a new nonce repeats a jump to the same place. */
export interface Jump {
  sequence: number;
  nonce: number;
}

/** A search hit in the chat: the sequence of the row that shows its line, and the line's own atom. */
export interface LineHit {
  row: number;
  atomId: string;
}

interface Props {
  sessionId: string;
  rows: Row[];
  /** by the id of the atom that replaced them: what rewinds took off the path */
  rewound: Map<string, RewoundSummary[]>;
  /** ids of the session's turns: a row whose atom opens a turn is marked with it */
  turnIds: Set<string>;
  hasOlder: boolean;
  loadingOlder: boolean;
  /** bumps when the transcript was replaced wholesale: land at the bottom again */
  resets: number;
  jump: Jump | null;
  /** a search hit: the row that shows it is marked, and a fold holding the line opens */
  hit: LineHit | null;
  onNearTop: () => void;
}

/** how close to the top (px) the reader gets before the page before is fetched */
const PREFETCH_MARGIN = 1200;
/** how close to the bottom (px) counts as at the bottom: new rows are followed from there */
const END_MARGIN = 48;

/**
 * The rows, virtualized with measured heights. Anchored to the end, like any chat: at the
 * bottom it follows new rows; scrolled up, it keeps the rows in view where they are, also when
 * older rows are put above them.
 */
export function TranscriptView({ sessionId, rows, rewound, turnIds, hasOlder, loadingOlder, resets, jump, hit, onNearTop }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 96,
    getItemKey: (index) => rows[index].atom.sequence,
    overscan: 6,
    anchorTo: 'end',
    followOnAppend: true,
    scrollEndThreshold: END_MARGIN,
  });

  // open at the newest row, and again after a reset
  const landedFor = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (rows.length === 0 || landedFor.current === resets) return;
    landedFor.current = resets;
    virtualizer.scrollToEnd();
  }, [rows.length, resets, virtualizer]);

  // a jump waits until its row is held (the pane loads older pages meanwhile)
  const jumpedFor = useRef<number | null>(null);
  const target = jump && rows.length > 0 && (rows[0].atom.sequence <= jump.sequence || !hasOlder) ? jump : null;
  useEffect(() => {
    if (!target || jumpedFor.current === target.nonce) return;
    jumpedFor.current = target.nonce;
    const index = rows.findIndex((r) => r.atom.sequence >= target.sequence);
    virtualizer.scrollToIndex(index === -1 ? rows.length - 1 : index, { align: 'start' });
  }, [target, rows, virtualizer]);

  // the view shrinks when a pending prompt shows under it (or the window does): a reader at the
  // bottom stays at the bottom, so the rows that follow keep being followed
  const atEnd = useRef(true);
  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => {
      if (atEnd.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  // near the top: fetch the page before (again after each page, while the reader stays there)
  const maybeLoadOlder = () => {
    const el = scroller.current;
    if (el && hasOlder && !loadingOlder && landedFor.current !== null && el.scrollTop < PREFETCH_MARGIN) onNearTop();
  };
  const onScroll = () => {
    const el = scroller.current!;
    atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight <= END_MARGIN;
    maybeLoadOlder();
  };
  // biome-ignore lint/correctness/useExhaustiveDependencies: checked again when a page lands or a load settles; scrolling checks the rest
  useEffect(() => maybeLoadOlder(), [rows.length, hasOlder, loadingOlder]);

  const targetSequence = target ? rows.find((r) => r.atom.sequence >= target.sequence)?.atom.sequence : undefined;
  return (
    <div className="chat-scroll" ref={scroller} onScroll={onScroll}>
      <div className="chat-rows" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          const hitHere = hit?.row === row.atom.sequence;
          return (
            <div
              key={item.key}
              ref={virtualizer.measureElement}
              data-index={item.index}
              data-sequence={row.atom.sequence}
              data-turn={turnIds.has(row.atom.id) ? row.atom.id : undefined}
              data-hit={hitHere ? '' : undefined}
              className={row.atom.sequence === targetSequence ? 'chat-row chat-row-target' : 'chat-row'}
              style={{ transform: `translateY(${item.start}px)` }}
            >
              {rewound.has(row.atom.id) && <RewoundBranches sessionId={sessionId} branches={rewound.get(row.atom.id)!} />}
              <AtomRow row={row} hit={hitHere ? hit.atomId : undefined} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
