import { useState } from 'react';
import { AwaySwitches } from '../answer/AwaySwitch';
import { useNow } from '../lib/use-now';
import { usePhone } from '../lib/use-phone';
import { useSessions } from '../tabs/sessions';
import { ClearBar } from './ClearBar';
import { FeedColumn } from './FeedColumn';
import { retryFeed, useFeed } from './feed-store';
import { GoalModal } from './GoalModal';
import { COMPLETED_READ, type GoalStatus } from './types';
import { type Notifications, useBlockedNotifications } from './use-blocked-notifications';
import './feed.css';

const COLUMNS: GoalStatus[] = ['WORKING', 'BLOCKED', 'COMPLETED'];
/** a phone shows one column under another: what needs you comes first */
const PHONE_COLUMNS: GoalStatus[] = ['BLOCKED', 'WORKING', 'COMPLETED'];

// The feed: every ask of every session in three columns, so the one that needs you is found first.
export function FeedPane() {
  const { loaded, error, columns, lastClear, olderCompleted } = useFeed();
  const { byId: tabs } = useSessions();
  const now = useNow(15_000);
  const [openGoal, setOpenGoal] = useState<string | null>(null);
  const phone = usePhone();
  const all = COLUMNS.flatMap((s) => columns[s]);
  const open = openGoal ? all.find((g) => g.id === openGoal) : undefined;
  // empty columns after a failed read would claim "nothing needs you": show the error alone
  const nothingToShow = error !== null && all.length === 0;
  const notifications = useBlockedNotifications(columns.BLOCKED, loaded, tabs, setOpenGoal);
  return (
    <div className="feed">
      <div className="feed-bar">
        <AwaySwitches />
        <NotifyControls notifications={notifications} />
      </div>
      {error && (
        <p className="feed-error" role="alert">
          <span className="error">Could not read the feed: {error}</span>{' '}
          <button type="button" onClick={retryFeed}>
            Try again
          </button>
        </p>
      )}
      {!nothingToShow && (
        <div className="feed-columns">
          {(phone ? PHONE_COLUMNS : COLUMNS).map((status) => (
            <FeedColumn
              key={status}
              status={status}
              goals={columns[status]}
              loaded={loaded}
              tabs={tabs}
              now={now}
              onOpen={setOpenGoal}
              actions={status === 'COMPLETED' && <ClearBar completed={columns.COMPLETED.map((g) => g.id)} lastClear={lastClear} />}
              note={status === 'COMPLETED' && olderCompleted && `The ${COMPLETED_READ} most recent were read; older ones are in their sessions.`}
            />
          ))}
        </div>
      )}
      {openGoal && <GoalModal key={openGoal} goalId={openGoal} updatedAt={open?.updatedAt} onClose={() => setOpenGoal(null)} />}
    </div>
  );
}

function NotifyControls({ notifications }: { notifications: Notifications }) {
  const { permission, ask, sound, setSound } = notifications;
  if (permission === 'unsupported') return <span className="feed-notify-note">Notifications need localhost or HTTPS (docs: answering from a phone)</span>;
  if (permission === 'denied') return <span className="feed-notify-note">Notifications are blocked for this page in the browser's settings</span>;
  if (permission === 'default')
    return (
      <button type="button" onClick={ask}>
        Notify me when a session needs me
      </button>
    );
  return (
    <label>
      <input type="checkbox" checked={sound} onChange={(e) => setSound(e.target.checked)} /> with a sound
    </label>
  );
}
