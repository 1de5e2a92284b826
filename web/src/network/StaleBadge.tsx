import './network.css';

interface Props {
  host: string;
  /** when the host went down (staleSince) */
  since: string;
}

/** "stale" beside a session of a host that is down: the tab or lane shows what the host said last. */
export function StaleBadge({ host, since }: Props) {
  return (
    <span className="stale-badge" title={`${host} is down since ${moment(since)}: what you see is its state then`}>
      stale
    </span>
  );
}

/** The time alone for today, the date and time before that. */
function moment(iso: string): string {
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString() ? date.toLocaleTimeString() : date.toLocaleString();
}
