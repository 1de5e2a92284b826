import { type ReactNode, useState } from 'react';
import type { SessionTab } from '../tabs/sessions';
import { GoalCard } from './GoalCard';
import { COLUMN_TITLE } from './labels';
import { sessionLabelOf } from './session-label';
import type { FeedGoal, GoalStatus } from './types';

/** Cards drawn at first and per "show more": thousands of completed goals must not cost a render. */
const PAGE = 50;

const EMPTY: Record<GoalStatus, string> = {
  WORKING: 'Nothing is being worked on.',
  BLOCKED: 'Nothing needs you.',
  COMPLETED: 'Nothing completed.',
};

interface Props {
  status: GoalStatus;
  goals: FeedGoal[];
  loaded: boolean;
  tabs: Map<string, SessionTab>;
  now: number;
  onOpen(id: string): void;
  /** buttons for the column's header */
  actions?: ReactNode;
  /** a line under the cards */
  note?: ReactNode;
}

/** One column of the feed: the goals of one rolled-up status, newest first. */
export function FeedColumn({ status, goals, loaded, tabs, now, onOpen, actions, note }: Props) {
  const name = status.toLowerCase();
  const [shown, setShown] = useState(PAGE);
  return (
    <section className={`feed-column feed-column-${name}`} data-column={name} aria-labelledby={`feed-${name}`}>
      <header className="feed-column-head">
        <h2 id={`feed-${name}`}>
          {COLUMN_TITLE[status]} <span className="feed-count">{goals.length}</span>
        </h2>
        {actions}
      </header>
      {goals.length === 0 ? (
        <p className="feed-empty">{loaded ? EMPTY[status] : 'Loading…'}</p>
      ) : (
        <ul className="feed-cards">
          {goals.slice(0, shown).map((goal) => (
            <GoalCard key={goal.id} goal={goal} session={sessionLabelOf(goal, tabs)} now={now} onOpen={onOpen} />
          ))}
          {goals.length > shown && (
            <li>
              <button type="button" className="feed-more" onClick={() => setShown(shown + PAGE)}>
                Show {Math.min(PAGE, goals.length - shown)} more of {goals.length - shown}
              </button>
            </li>
          )}
        </ul>
      )}
      {note && <p className="feed-note">{note}</p>}
    </section>
  );
}
