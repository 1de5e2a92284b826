import { RequestPanel } from '../answer/RequestPanel';
import { age } from '../lib/age';
import { when } from '../lib/when';
import { HostName } from '../tabs/host-name';
import { answeredLine, blockLine, progress } from './labels';
import { OutcomeBadge } from './OutcomeBadge';
import type { SessionLabel } from './session-label';
import type { FeedGoal } from './types';

/** How long a card says who answered its request. */
const ANSWER_NEWS_MS = 10 * 60_000;

interface Props {
  goal: FeedGoal;
  session: SessionLabel;
  now: number;
  onOpen(id: string): void;
}

/** One top-level goal: what was asked, in which tab, how long ago (when it was left open), and what it waits for. */
export function GoalCard({ goal, session, now, onOpen }: Props) {
  const parts = progress(goal.children);
  // who answered its last request, while that is news
  const answered = goal.answeredRequest?.closedAt && now - Date.parse(goal.answeredRequest.closedAt) < ANSWER_NEWS_MS ? goal.answeredRequest : null;
  return (
    <li>
      <button type="button" className={`goal-card goal-${goal.rolledUpStatus.toLowerCase()}`} data-goal={goal.id} onClick={() => onOpen(goal.id)}>
        <span className="goal-title">{goal.title}</span>
        {goal.block && <span className="goal-block">{blockLine(goal.block)}</span>}
        {!goal.block && answered && <span className="goal-answered">{answeredLine(answered)}</span>}
        <span className="goal-meta">
          <HostName host={session.host} name={session.name} />
          <OutcomeBadge outcome={goal.outcome} />
          {parts && (
            <span className="goal-progress" title="parts done">
              {parts}
            </span>
          )}
          {goal.outcome === 'UNFINISHED' ? (
            <time className="goal-age" dateTime={goal.updatedAt} title={`last activity ${new Date(goal.updatedAt).toLocaleString()}`}>
              {when(goal.updatedAt, now)}
            </time>
          ) : (
            <time className="goal-age" dateTime={goal.updatedAt} title={new Date(goal.updatedAt).toLocaleString()}>
              {age(goal.updatedAt, now)}
            </time>
          )}
        </span>
      </button>
      {goal.block?.request && <RequestPanel request={goal.block.request} />}
    </li>
  );
}
