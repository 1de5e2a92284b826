import { useEffect, useMemo } from 'react';
import { mutate, subscribe } from '../lib/gql';
import { readFragment } from '../lib/graphql';
import { idempotencyKey } from '../lib/idempotency-key';
import { createStore, type Store } from '../lib/store';
import type { Bubble, OutboxState } from './bubbles';
import { dismiss } from './dismissed';
import { RESUME_SESSION, SEND_PROMPT, SENT_PROMPT, SENT_PROMPTS_CHANGED } from './queries';
import type { Delivery, Outgoing, SentPrompt } from './types';

// One session's prompts on their way: what this page sent (kept while the person reads another
// session, so a failed send is still there on return) and the kernel's list of sent prompts,
// followed while the chat is open. bubbles.ts turns the two into what the chat shows.

export class Outbox {
  readonly state: Store<OutboxState> = createStore<OutboxState>({ prompts: [], outgoing: [], seenOpen: new Set(), dismissals: 0 });
  private stopFollowing: (() => void) | null = null;

  constructor(private readonly sessionId: string) {}

  start(): void {
    this.stop();
    this.stopFollowing = subscribe(SENT_PROMPTS_CHANGED, { id: this.sessionId }, ({ sentPromptsChanged }) =>
      this.listed(readFragment(SENT_PROMPT, sentPromptsChanged)),
    );
  }

  stop(): void {
    this.stopFollowing?.();
    this.stopFollowing = null;
  }

  /** Sends a prompt; it shows at once, before the kernel answers. */
  send(text: string, how: Delivery, afterSequence: number): void {
    const { prompts, outgoing } = this.state.get();
    const sent: Outgoing = {
      key: idempotencyKey(),
      text,
      how,
      afterSequence,
      known: new Set(prompts.map((p) => p.id)),
      answer: null,
      error: null,
      listed: false,
    };
    this.patch({ outgoing: [...outgoing, sent] });
    const answer =
      how === 'resume'
        ? mutate(RESUME_SESSION, { id: this.sessionId, prompt: text, key: sent.key }).then((d) => d.resumeSession)
        : mutate(SEND_PROMPT, { id: this.sessionId, text, key: sent.key }).then((d) => d.sendPrompt);
    answer.then(
      (p) => this.answered(sent.key, readFragment(SENT_PROMPT, p)),
      (err: Error) => this.update(sent.key, { error: err.message }),
    );
  }

  /** Sends a prompt that did not get through again, as a new send (a new key: the old one's answer was final). */
  retry(bubble: Bubble, how: Delivery, afterSequence: number): void {
    this.dismiss(bubble);
    this.send(bubble.text, how, afterSequence);
  }

  dismiss(bubble: Bubble): void {
    if (bubble.promptId) dismiss(bubble.promptId);
    const { outgoing, dismissals } = this.state.get();
    this.patch({ outgoing: outgoing.filter((o) => o.key !== bubble.id), dismissals: dismissals + 1 });
  }

  /** A resume is on its way: a second one would start a second process on the same transcript. */
  resuming(): boolean {
    return this.state.get().outgoing.some((o) => o.how === 'resume' && !o.answer && !o.error);
  }

  private listed(prompts: readonly SentPrompt[]): void {
    const now = this.state.get();
    const ids = new Set(prompts.map((p) => p.id));
    const seenOpen = new Set(now.seenOpen);
    for (const p of prompts) if (p.state === 'QUEUED' || p.state === 'PENDING') seenOpen.add(p.id);
    const outgoing = now.outgoing.map((o) => (o.answer && !o.listed && ids.has(o.answer.id) ? { ...o, listed: true } : o));
    this.patch({ prompts, seenOpen, outgoing });
  }

  private answered(key: string, answer: SentPrompt): void {
    const listed = this.state.get().prompts.some((p) => p.id === answer.id);
    this.update(key, { answer, listed });
  }

  private update(key: string, change: Partial<Outgoing>): void {
    this.patch({ outgoing: this.state.get().outgoing.map((o) => (o.key === key ? { ...o, ...change } : o)) });
  }

  private patch(next: Partial<OutboxState>): void {
    this.state.set({ ...this.state.get(), ...next });
  }
}

const outboxes = new Map<string, Outbox>();

/** The session's outbox, following the kernel's list while the calling component is mounted. */
export function useOutbox(sessionId: string): { outbox: Outbox; state: OutboxState } {
  const outbox = useMemo(() => {
    let box = outboxes.get(sessionId);
    if (!box) {
      box = new Outbox(sessionId);
      outboxes.set(sessionId, box);
    }
    return box;
  }, [sessionId]);
  useEffect(() => {
    outbox.start();
    return () => outbox.stop();
  }, [outbox]);
  return { outbox, state: outbox.state.use() };
}
