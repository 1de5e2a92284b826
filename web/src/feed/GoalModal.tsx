import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { durationBetween } from '../lib/duration';
import { query } from '../lib/gql';
import { HostName } from '../tabs/host-name';
import { blockLine, CHILD_KIND_LABEL, progress, STATUS_LABEL } from './labels';
import { OutcomeBadge } from './OutcomeBadge';
import { GOAL_DETAIL } from './queries';
import { type GoalDetail, sessionIdOf } from './types';

interface Props {
  goalId: string;
  /** the goal's updatedAt in the feed: when it moves, the details are read again */
  updatedAt: string | undefined;
  onClose(): void;
}

/** A goal in full: its trail, its parts, and the way to its turn in the chat. */
export function GoalModal({ goalId, updatedAt, onClose }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [goal, setGoal] = useState<GoalDetail | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);

  useEffect(() => {
    let current = true;
    query(GOAL_DETAIL, { id: goalId }).then(
      (data) => {
        if (!current) return;
        setGoal(data.goal);
        setError(data.goal ? null : 'This goal is gone: its session no longer has it.');
      },
      (err: Error) => current && setError(err.message),
    );
    return () => {
      current = false;
    };
  }, [goalId, updatedAt]);

  const sessionId = goal?.session?.id ?? sessionIdOf(goalId);
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a <dialog> closes on Escape by itself; the click is the backdrop's
    <dialog
      ref={dialog}
      className="goal-modal"
      aria-labelledby="goal-modal-title"
      onClose={onClose}
      // a click on the backdrop lands on the dialog itself
      onClick={(e) => e.target === e.currentTarget && dialog.current?.close()}
    >
      <header className="goal-modal-head">
        <h2 id="goal-modal-title">{goal?.title ?? 'Goal'}</h2>
        <button type="button" className="goal-modal-close" aria-label="Close" onClick={() => dialog.current?.close()}>
          ×
        </button>
      </header>
      {error && <p className="error">{error}</p>}
      {!goal && !error && <p className="feed-empty">Loading…</p>}
      {goal && (
        <>
          <p className="goal-modal-sub">
            {goal.session && <HostName host={goal.session.host.name} name={goal.session.name} />}
            <span className={`goal-status goal-${goal.rolledUpStatus.toLowerCase()}`}>{STATUS_LABEL[goal.rolledUpStatus]}</span>
            <OutcomeBadge outcome={goal.outcome} />
            <Link to="/s/$id" params={{ id: sessionId }} search={goal.anchor ? { turn: goal.anchor.id } : {}}>
              Open in chat
            </Link>
          </p>
          {goal.block && <p className="goal-block">{blockLine(goal.block)}</p>}
          <h3>Trail</h3>
          {goal.trail.length === 0 ? (
            <p className="feed-empty">No steps recorded.</p>
          ) : (
            <ol className="goal-trail">
              {goal.trail.map((step) => (
                <li key={step.index} data-step={step.index}>
                  <span className="goal-trail-prompt">{step.input?.promptLine ?? '(continued without a prompt)'}</span>
                  <span className="goal-trail-meta">
                    <time dateTime={step.t}>{new Date(step.t).toLocaleString()}</time> · {durationBetween(step.t, step.end)} · {step.atomCount} atoms
                  </span>
                </li>
              ))}
            </ol>
          )}
          <h3>Parts {goal.children.length > 0 && <span className="feed-count">{progress(goal.children)}</span>}</h3>
          {goal.children.length === 0 ? (
            <p className="feed-empty">No todo items, tasks or subagents.</p>
          ) : (
            <ul className="goal-children">
              {goal.children.map((child) => (
                <li key={child.id} data-child={child.id}>
                  <span className="goal-child-kind">{CHILD_KIND_LABEL[child.kind]}</span>
                  <span className="goal-child-title">{child.title}</span>
                  <span className={`goal-status goal-${child.status.toLowerCase()}`}>{STATUS_LABEL[child.status]}</span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </dialog>
  );
}
