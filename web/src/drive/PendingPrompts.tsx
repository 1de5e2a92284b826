import { Markdown } from '../chat/Markdown';
import type { Bubble, BubbleState } from './bubbles';

const STATE_LABEL: Record<BubbleState, string> = {
  SENDING: 'sending…',
  QUEUED: 'queued',
  PENDING: 'pending',
  DELIVERED: 'delivered',
  DROPPED: 'not delivered',
  FAILED: 'not sent',
};

const STATE_TITLE: Partial<Record<BubbleState, string>> = {
  PENDING: 'Claude Code has it and has not written it to the transcript yet',
  DELIVERED: 'In the transcript; it shows in the chat as it arrives',
};

interface Props {
  bubbles: readonly Bubble[];
  /** why nothing can be sent from here: Retry waits for it */
  blocked: string | null;
  onRetry(bubble: Bubble): void;
  onDismiss(bubble: Bubble): void;
}

/** Prompts sent through Loom and not in the chat yet, at its end: what happened to each, and Retry or Dismiss when it did not get through. */
export function PendingPrompts({ bubbles, blocked, onRetry, onDismiss }: Props) {
  if (bubbles.length === 0) return null;
  return (
    <ol className="pending-prompts" aria-label="Prompts on their way" aria-live="polite">
      {bubbles.map((b) => {
        const failed = b.state === 'DROPPED' || b.state === 'FAILED';
        return (
          <li key={b.id} className={`pending-prompt pending-${b.state.toLowerCase()}`} data-state={b.state}>
            <div className="pending-head">
              <span className="pending-who">you</span>
              <span className="pending-state" title={STATE_TITLE[b.state]}>
                {STATE_LABEL[b.state]}
                {b.reason && (b.state === 'QUEUED' || failed) && <span className="pending-reason">: {b.reason}</span>}
              </span>
            </div>
            <Markdown text={b.text} />
            {failed && (
              <div className="pending-actions">
                <button type="button" disabled={blocked !== null} title={blocked ?? 'Send it again'} onClick={() => onRetry(b)}>
                  Retry
                </button>
                <button type="button" onClick={() => onDismiss(b)}>
                  Dismiss
                </button>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
