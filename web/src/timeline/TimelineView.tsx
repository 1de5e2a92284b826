import { useNavigate } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useCallback, useMemo, useRef } from 'react';
import type { SessionTab } from '../tabs/sessions';
import { TickLines, TimeAxis } from './TimeAxis';
import { TimelineControls } from './TimelineControls';
import { TimelineLane } from './TimelineLane';
import { TimelineLegend } from './TimelineLegend';
import { ticks } from './time-ticks';
import { activeIn, type TimeWindow } from './time-window';
import { usePanZoom } from './use-pan-zoom';
import { MAX_LANES, useTimeline } from './use-timeline';
import { useWidth } from './use-width';

const ROW = 30;

interface ViewProps {
  window: TimeWindow;
  /** the sessions the tab filter lets through, most recently active first */
  shown: SessionTab[];
  latest: number | null;
  all: TimeWindow | null;
}

/** The controls, the axis and the lanes of one window. Only the lanes in view are in the DOM. */
export function TimelineView({ window, shown, latest, all }: ViewProps) {
  const surface = useRef<HTMLDivElement>(null);
  const track = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const wasDrag = usePanZoom(surface, track);
  const width = useWidth(track);
  const marks = useMemo(() => ticks(window, width), [window, width]);

  const active = useMemo(() => shown.filter((s) => activeIn(window, s)), [shown, window]);
  const asked = active.slice(0, MAX_LANES);
  const version = asked.map((s) => `${s.id}@${s.updatedAt}@${s.live.since}`).join(' ');
  const { lanes, error } = useTimeline(
    window,
    asked.map((s) => s.id),
    version,
  );
  // lanes answer a request made a moment ago: keep only those the filter still lets through
  const shownIds = useMemo(() => new Set(shown.map((s) => s.id)), [shown]);
  const visible = useMemo(() => (lanes ?? []).filter((lane) => shownIds.has(lane.session.id)), [lanes, shownIds]);

  const rows = useVirtualizer({ count: visible.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 10 });
  const open = useCallback(
    (id: string, turn: string) => {
      if (!wasDrag()) void navigate({ to: '/s/$id', params: { id }, search: { turn } });
    },
    [navigate, wasDrag],
  );
  const now = Date.now();

  return (
    <div className="tl" data-from={new Date(window.from).toISOString()} data-to={new Date(window.to).toISOString()}>
      <TimelineControls window={window} latest={latest} all={all} />
      {error && <div className="tl-message error">{error}</div>}
      <div className="tl-body" ref={surface}>
        <TimeAxis window={window} marks={marks} track={track} />
        <div className="tl-lanes" ref={scroller}>
          <div className="tl-lanes-inner" style={{ height: rows.getTotalSize() }}>
            <TickLines window={window} marks={marks} />
            {rows.getVirtualItems().map((row) => (
              <TimelineLane
                key={visible[row.index].session.id}
                lane={visible[row.index]}
                window={window}
                now={now}
                open={open}
                style={{ transform: `translateY(${row.start}px)`, height: ROW }}
              />
            ))}
          </div>
          {lanes === null && !error && <div className="empty">Loading the timeline…</div>}
          {lanes !== null && visible.length === 0 && (
            <div className="empty">
              {shown.length === 0 ? 'No session matches the filter.' : 'No session was active in this window. Zoom out, or move to the latest activity.'}
            </div>
          )}
        </div>
      </div>
      <footer className="tl-footer">
        <TimelineLegend />
        {active.length > asked.length && (
          <span className="tl-more">
            Showing the {asked.length} most recently active of {active.length} sessions in this window; narrow the window or the filter to see the rest.
          </span>
        )}
      </footer>
    </div>
  );
}
