import { getRouteApi, Link } from '@tanstack/react-router';
import { useEffect, useMemo, useState } from 'react';
import { useQuery } from 'urql';
import { readFragment } from '../lib/graphql';
import { useHosts } from '../network/hosts';
import { USAGE, USAGE_ROW } from './queries';
import { DEFAULT_RANGE, dayOf, RANGES, type RangeId, sinceOf, TIME_ZONE } from './range';
import { UsageReport } from './UsageReport';
import './usage.css';

// `/usage`: the page, loaded lazily (routes/usage.tsx). One request gives every group over the
// chosen range; it is asked again each minute while the page is open, as sessions keep running.

const route = getRouteApi('/usage');
const REFRESH_MS = 60_000;

export function UsagePane() {
  const range = route.useSearch().range ?? DEFAULT_RANGE;
  // the range ends today: a page left open past midnight moves it on by a day
  const [today, setToday] = useState(() => dayOf(new Date()));
  const since = useMemo(() => sinceOf(range, new Date(`${today}T00:00`)), [range, today]);
  const [{ data, error }, refresh] = useQuery({ query: USAGE, variables: { since, timeZone: TIME_ZONE } });
  useEffect(() => {
    const timer = setInterval(() => {
      setToday(dayOf(new Date()));
      refresh({ requestPolicy: 'network-only' });
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [refresh]);

  return (
    <section className="usage">
      <div className="usage-head">
        <h1>Usage</h1>
        <RangePicker range={range} />
      </div>
      <DownHosts />
      {error && <p className="error">The usage could not be read: {error.message.replace(/^\[\w+\] /, '')}</p>}
      {!data && !error && <p className="usage-note">Reading usage…</p>}
      {data && (
        <UsageReport
          range={range}
          since={since}
          days={readFragment(USAGE_ROW, data.days)}
          models={readFragment(USAGE_ROW, data.models)}
          hosts={readFragment(USAGE_ROW, data.hosts)}
          sessions={readFragment(USAGE_ROW, data.sessions)}
        />
      )}
    </section>
  );
}

function RangePicker({ range }: { range: RangeId }) {
  return (
    <nav className="usage-range" aria-label="Range">
      {RANGES.map((r) => (
        <Link
          key={r.id}
          to="/usage"
          search={{ range: r.id }}
          aria-current={r.id === range ? 'page' : undefined}
          className={r.id === range ? 'active' : undefined}
        >
          {r.days === null ? 'all' : `last ${r.label}`}
        </Link>
      ))}
    </nav>
  );
}

/** A linked host that is not up gives no usage: say so, rather than show smaller figures as whole. */
function DownHosts() {
  const { hosts } = useHosts();
  const down = hosts.filter((h) => !h.local && h.status && h.status.state !== 'UP').map((h) => h.name);
  if (down.length === 0) return null;
  return (
    <p className="usage-note" role="status">
      Not counted: {down.join(', ')} {down.length === 1 ? 'is' : 'are'} not connected, so {down.length === 1 ? 'its' : 'their'} usage is missing here.
    </p>
  );
}
