import { type FormEvent, type KeyboardEvent, useState } from 'react';
import { mutate } from '../lib/gql';
import { idempotencyKey } from '../lib/idempotency-key';
import { INTERRUPT } from './queries';
import type { SessionHolder } from './types';

interface Props {
  sessionId: string;
  holder: SessionHolder;
  /** a process Loom drives is mid-turn: it can be interrupted */
  driving: boolean;
  /** why nothing can be sent from here (an isolated or unreachable host, a subagent), or null */
  blocked: string | null;
  /** a resume is on its way: sending waits for it */
  resuming: boolean;
  onSend(text: string): void;
}

/** what typing here does, by who holds the session */
const HOLDER_NOTE: Record<SessionHolder, string> = {
  LOOM: 'Loom runs this session.',
  TERMINAL: 'A terminal holds this session: a prompt waits for its turn to end.',
  NONE: 'Nothing runs this session: sending resumes it.',
};

/** drafts by session, kept while the person reads another session */
const drafts = new Map<string, string>();

/** The box under the chat: a prompt for the session (Enter sends, Shift+Enter a new line), and Interrupt while it works. */
export function Composer({ sessionId, holder, driving, blocked, resuming, onSend }: Props) {
  const [text, setText] = useState(() => drafts.get(sessionId) ?? '');
  const [interrupting, setInterrupting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const edit = (next: string) => {
    setText(next);
    drafts.set(sessionId, next);
  };

  const disabled = blocked !== null;
  const canSend = !disabled && !resuming && text.trim() !== '';
  const send = (e?: FormEvent) => {
    e?.preventDefault();
    if (!canSend) return;
    onSend(text);
    edit('');
    setError(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // an IME's Enter picks a word; it sends nothing
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    send();
  };
  const interrupt = () => {
    setInterrupting(true);
    setError(null);
    mutate(INTERRUPT, { id: sessionId, key: idempotencyKey() })
      .catch((err: Error) => setError(`Could not interrupt: ${err.message}`))
      .finally(() => setInterrupting(false));
  };

  const note = blocked ?? (resuming ? 'Resuming the session…' : driving ? 'Claude is working: a prompt is read at its next step.' : HOLDER_NOTE[holder]);
  return (
    <form className="composer" aria-label="Send a prompt" onSubmit={send} data-holder={holder}>
      <div className="composer-row">
        <textarea
          className="composer-text"
          aria-label="Prompt"
          placeholder={disabled ? 'Sending is off for this session' : holder === 'NONE' ? 'A prompt to resume the session with' : 'A prompt for Claude'}
          rows={1}
          value={text}
          disabled={disabled}
          onChange={(e) => edit(e.target.value)}
          onKeyDown={onKeyDown}
        />
        {driving && (
          <button type="button" className="composer-interrupt" disabled={disabled || interrupting} onClick={interrupt} title="Stop the turn, as Esc does">
            {interrupting ? 'Interrupting…' : 'Interrupt'}
          </button>
        )}
        <button type="submit" className="composer-send" disabled={!canSend} aria-keyshortcuts="Enter">
          {holder === 'NONE' ? 'Resume' : 'Send'}
        </button>
      </div>
      <p className={blocked ? 'composer-note composer-blocked' : 'composer-note'} role={blocked ? 'note' : undefined}>
        {note}
      </p>
      {error && (
        <p className="error composer-error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
