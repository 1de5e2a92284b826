import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { Markdown } from '../chat/Markdown';
import { ToolInput } from '../chat/tools/ToolInput';
import { mutate } from '../lib/gql';
import type { FragmentOf, ResultOf } from '../lib/graphql';
import { readFragment } from '../lib/graphql';
import { ALLOW_TOOL, ANSWER_QUESTION, APPROVE_PLAN, DENY_TOOL, REJECT_PLAN, REQUEST } from './queries';
import './answer.css';

// A blocked card's request and the answers to it. One answer is sent; the card leaves the
// "needs you" column when the feed says the goal moved on. Keys while the panel has focus:
// a allow, A always allow, d deny (plans: a approve, d keep planning).

type Request = ResultOf<typeof REQUEST>;
type Question = Request['questions'][number];

let sent = 0;
/** One key per answer a person gives: sending it again (a retry) does nothing twice. */
const newKey = () => `ui-${Date.now().toString(36)}-${++sent}`;

export function RequestPanel({ request: ref }: { request: FragmentOf<typeof REQUEST> }) {
  const request = readFragment(REQUEST, ref);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [denying, setDenying] = useState(false);
  const message = useRef<HTMLInputElement>(null);
  // the message field takes the keys as soon as it shows
  useEffect(() => {
    if (denying) message.current?.focus();
  }, [denying]);

  const send = (what: string, action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    action()
      .then(() => setDone(what))
      .catch((err: Error) => setError(err.message))
      .finally(() => setBusy(false));
  };
  const id = request.id;
  const allow = (always: boolean) => send(always ? 'Allowed always' : 'Allowed', () => mutate(ALLOW_TOOL, { id, always, key: newKey() }));
  const deny = (text: string) => {
    const reason = text.trim() || 'Denied from Loom';
    if (request.kind === 'PLAN_APPROVAL') send('Sent back to planning', () => mutate(REJECT_PLAN, { id, message: reason, key: newKey() }));
    else send('Denied', () => mutate(DENY_TOOL, { id, message: reason, key: newKey() }));
  };
  const approve = () => send('Plan approved', () => mutate(APPROVE_PLAN, { id, mode: null, key: newKey() }));

  const onKeyDown = (e: KeyboardEvent) => {
    if (busy || done || e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement) return;
    if (e.key === 'a' && request.kind === 'PERMISSION') allow(false);
    else if (e.key === 'A' && request.kind === 'PERMISSION' && request.canAlwaysAllow) allow(true);
    else if (e.key === 'a' && request.kind === 'PLAN_APPROVAL') approve();
    else if (e.key === 'd') setDenying(true);
    else return;
    e.preventDefault();
  };

  return (
    <section className="request" aria-label={`${request.toolName} request`} data-request={request.id} onKeyDown={onKeyDown}>
      {request.kind === 'QUESTION' ? (
        <QuestionForm
          questions={request.questions}
          busy={busy || done !== null}
          onAnswer={(answers) => send('Answered', () => mutate(ANSWER_QUESTION, { id, answers, key: newKey() }))}
        />
      ) : request.kind === 'PLAN_APPROVAL' && request.plan !== null ? (
        <Markdown text={request.plan} />
      ) : (
        <ToolInput name={request.toolName} held={{ input: request.input, rest: null }} cwd={request.cwd} />
      )}
      {done ? (
        <p className="request-done" role="status">
          {done}; waiting for the session to go on…
        </p>
      ) : (
        <div className="request-actions">
          {request.kind === 'PERMISSION' && (
            <>
              <button type="button" className="answer-allow" disabled={busy} aria-keyshortcuts="a" onClick={() => allow(false)}>
                Allow
              </button>
              {request.canAlwaysAllow && (
                <button type="button" disabled={busy} aria-keyshortcuts="Shift+A" onClick={() => allow(true)} title="Allow with the rule Claude Code suggests">
                  Always allow
                </button>
              )}
            </>
          )}
          {request.kind === 'PLAN_APPROVAL' && (
            <button type="button" className="answer-allow" disabled={busy} aria-keyshortcuts="a" onClick={approve}>
              Approve plan
            </button>
          )}
          {denying ? (
            <form
              className="deny-form"
              onSubmit={(e) => {
                e.preventDefault();
                deny(message.current?.value ?? '');
              }}
            >
              <input ref={message} aria-label="What Claude should do instead" placeholder="What Claude should do instead" />
              <button type="submit" disabled={busy}>
                {request.kind === 'PLAN_APPROVAL' ? 'Keep planning' : 'Deny'}
              </button>
            </form>
          ) : (
            <button type="button" disabled={busy} aria-keyshortcuts="d" onClick={() => setDenying(true)}>
              {request.kind === 'PLAN_APPROVAL' ? 'Keep planning…' : 'Deny…'}
            </button>
          )}
        </div>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

function QuestionForm({
  questions,
  busy,
  onAnswer,
}: {
  questions: Question[];
  busy: boolean;
  onAnswer(answers: { question: string; selected: string[] }[]): void;
}) {
  const [chosen, setChosen] = useState<Record<string, string[]>>({});
  const pick = (q: Question, label: string, on: boolean) =>
    setChosen((c) => ({
      ...c,
      [q.question]: q.multiSelect ? (on ? [...(c[q.question] ?? []), label] : (c[q.question] ?? []).filter((l) => l !== label)) : [label],
    }));
  const complete = questions.every((q) => (chosen[q.question] ?? []).length > 0);
  return (
    <form
      className="question-form"
      onSubmit={(e) => {
        e.preventDefault();
        onAnswer(questions.map((q) => ({ question: q.question, selected: chosen[q.question] ?? [] })));
      }}
    >
      {questions.map((q) => (
        <fieldset key={q.question}>
          <legend>{q.question}</legend>
          {q.options.map((o) => (
            <label key={o.label} title={o.description}>
              <input
                type={q.multiSelect ? 'checkbox' : 'radio'}
                name={q.question}
                checked={(chosen[q.question] ?? []).includes(o.label)}
                onChange={(e) => pick(q, o.label, e.target.checked)}
              />
              {o.label}
            </label>
          ))}
        </fieldset>
      ))}
      <button type="submit" className="answer-allow" disabled={busy || !complete}>
        Answer
      </button>
    </form>
  );
}
