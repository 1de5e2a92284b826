import { Link } from '@tanstack/react-router';
import type { CSSProperties, KeyboardEvent } from 'react';
import { useHosts } from '../network/hosts';
import { StaleBadge } from '../network/StaleBadge';
import { HostName } from '../tabs/host-name';
import { shownName } from '../tabs/shown-name';
import { staleSince } from '../tabs/stale';
import { describeBar, describeSpan } from './describe';
import { fractionOf, type TimeWindow } from './time-window';
import type { Lane } from './use-timeline';

interface LaneProps {
  lane: Lane;
  window: TimeWindow;
  /** where an open stripe (still waiting) ends */
  now: number;
  open: (sessionId: string, turnId: string) => void;
  style: CSSProperties;
}

/** One session: its label, then its turns' segments as bars, idle gaps, trigger dots and live stripes. */
export function TimelineLane({ lane, window, now, open, style }: LaneProps) {
  const { session } = lane;
  const stale = staleSince(session, useHosts().hosts);
  const opener = (turnId: string) => ({
    role: 'button',
    tabIndex: 0,
    onClick: () => open(session.id, turnId),
    onKeyDown: (e: KeyboardEvent) => e.key === 'Enter' && open(session.id, turnId),
  });
  return (
    <div className="tl-lane" data-lane={session.id} style={style}>
      <Link className="tl-label" to="/s/$id" params={{ id: session.id }} title={`${session.host.name}:${shownName(session)}`}>
        <HostName host={session.host.name} name={shownName(session)} />
        {stale && <StaleBadge host={session.host.name} since={stale} />}
      </Link>
      <div className="tl-track">
        {lane.bars.map((bar) => (
          <div
            key={`${bar.turnId}/${bar.segmentIndex}`}
            className={`tl-bar tl-bar-${bar.status.toLowerCase()}`}
            data-turn={bar.turnId}
            title={describeBar(bar)}
            style={place(window, Date.parse(bar.t), Date.parse(bar.end))}
            {...opener(bar.turnId)}
          />
        ))}
        {lane.idle.map((idle) => (
          <div key={idle.t} className="tl-idle" style={place(window, Date.parse(idle.t), Date.parse(idle.end))} />
        ))}
        {lane.stripes.map((stripe) => (
          <div
            key={`${stripe.kind}/${stripe.t}`}
            className={`tl-stripe tl-stripe-${stripe.kind.toLowerCase()}`}
            title={describeSpan(stripe.kind === 'PERMISSION' ? 'waiting for a permission' : 'compacting', stripe.t, stripe.end)}
            style={place(window, Date.parse(stripe.t), stripe.end ? Date.parse(stripe.end) : Math.max(now, Date.parse(stripe.t)))}
          />
        ))}
        {lane.triggers.map((dot) => (
          <div
            key={dot.turnId}
            className="tl-dot"
            title={dot.text ?? '(no prompt text)'}
            style={{ left: `${fractionOf(window, Date.parse(dot.t)) * 100}%` }}
            {...opener(dot.turnId)}
          />
        ))}
      </div>
    </div>
  );
}

/** Left and width, as percentages of the track, of [t, end] clipped to the window. */
function place(window: TimeWindow, t: number, end: number): CSSProperties {
  const left = Math.max(0, fractionOf(window, t));
  const right = Math.min(1, fractionOf(window, end));
  return { left: `${left * 100}%`, width: `${Math.max(0, right - left) * 100}%` };
}
