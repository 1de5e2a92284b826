import type { RefObject } from 'react';
import type { Tick } from './time-ticks';
import { fractionOf, type TimeWindow } from './time-window';

/** The time axis above the lanes; `track` is its time-spanning part, which the pointer maths measures. */
export function TimeAxis({ window, marks, track }: { window: TimeWindow; marks: Tick[]; track: RefObject<HTMLDivElement | null> }) {
  return (
    <div className="tl-axis" title="Scroll here, or ctrl + scroll anywhere, to zoom; drag to pan">
      <div className="tl-label" />
      <div className="tl-axis-track" ref={track}>
        {marks.map((tick) => (
          <span key={tick.t} className="tl-tick" style={{ left: `${fractionOf(window, tick.t) * 100}%` }}>
            {tick.label}
          </span>
        ))}
      </div>
    </div>
  );
}

/** A faint line down the lanes at each tick. */
export function TickLines({ window, marks }: { window: TimeWindow; marks: Tick[] }) {
  return (
    <div className="tl-grid" aria-hidden>
      {marks.map((tick) => (
        <span key={tick.t} className="tl-grid-line" style={{ left: `${fractionOf(window, tick.t) * 100}%` }} />
      ))}
    </div>
  );
}
