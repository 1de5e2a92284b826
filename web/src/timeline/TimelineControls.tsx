import { LaneTagFilter } from './LaneTagFilter';
import { endingAt, PRESETS, pan, span, type TimeWindow, withSpan, zoom } from './time-window';
import { timeWindow } from './window-store';

const when = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

interface ControlsProps {
  window: TimeWindow;
  /** the newest activity among the sessions shown */
  latest: number | null;
  /** the window over all of them */
  all: TimeWindow | null;
}

/** Presets, zoom and pan buttons, the window shown, and the lanes' tag. */
export function TimelineControls({ window, latest, all }: ControlsProps) {
  const set = timeWindow.set;
  return (
    <div className="tl-controls" role="toolbar" aria-label="Timeline window">
      <div className="tl-group">
        {PRESETS.map((preset) => (
          <button
            key={preset.label}
            type="button"
            className={Math.abs(span(window) - preset.span) < 1000 ? 'active' : undefined}
            title={`Show ${preset.label} up to the end of this window`}
            onClick={() => set(withSpan(window, preset.span))}
          >
            {preset.label}
          </button>
        ))}
        <button type="button" disabled={!all} title="Show all the activity of these sessions" onClick={() => all && set(all)}>
          all
        </button>
      </div>
      <div className="tl-group">
        <button type="button" aria-label="Zoom out" title="Zoom out" onClick={() => set(zoom(window, 2))}>
          −
        </button>
        <button type="button" aria-label="Zoom in" title="Zoom in" onClick={() => set(zoom(window, 0.5))}>
          +
        </button>
      </div>
      <div className="tl-group">
        <button type="button" aria-label="Earlier" title="Earlier" onClick={() => set(pan(window, -0.5))}>
          ←
        </button>
        <button type="button" aria-label="Later" title="Later" onClick={() => set(pan(window, 0.5))}>
          →
        </button>
        <button
          type="button"
          disabled={latest === null}
          title="Move to the newest activity"
          onClick={() => latest !== null && set(endingAt(latest, span(window)))}
        >
          latest
        </button>
      </div>
      <LaneTagFilter />
      <span className="tl-range">
        {when.format(window.from)} – {when.format(window.to)}
      </span>
    </div>
  );
}
