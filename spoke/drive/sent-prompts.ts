import { randomUUID } from 'node:crypto';
import type { PromptDelivery, SentPrompt, SentPromptState } from '../model/drive';
import { Pulse } from '../model/pulse';
import type { AtomMeta } from '../model/types';
import { promptLine } from '../transcripts/author';

// The prompts sent through Loom, per session, from the send until the transcript settles them,
// never on a timer. A prompt for a driven process's input is DELIVERED when a prompt line with
// its first line lands after it was sent, and DROPPED when the process ended without writing it,
// or a prompt sent after it landed first. A prompt a Stop hook delivers is settled only by the
// line carrying its id (loom-marker.ts): a line the person typed never settles it. A few settled
// ones are kept so a chat can show what happened.

const SETTLED_KEPT = 20;
/** a transcript line's timestamp may trail the send by this much and still be its landing */
const CLOCK_SLACK_MS = 2000;

export class SentPrompts {
  private readonly bySession = new Map<string, SentPrompt[]>();
  private readonly listeners = new Set<(sessionKey: string) => void>();

  constructor(private readonly now: () => number) {}

  /** A session's prompts now, then again after each change (changes while the reader is busy collapse into one). */
  follow(sessionKey: string): AsyncIterableIterator<SentPrompt[]> {
    const listener = (key: string) => {
      if (key === sessionKey) pulse.notify();
    };
    const pulse = new Pulse(() => this.listeners.delete(listener));
    this.listeners.add(listener);
    pulse.notify();
    // not a generator: ending it must not wait for the next change
    const prompts: AsyncIterableIterator<SentPrompt[]> = {
      next: async () => ((await pulse.next()).done ? { value: undefined, done: true } : { value: this.of(sessionKey), done: false }),
      return: async () => {
        pulse.close();
        return { value: undefined, done: true };
      },
      [Symbol.asyncIterator]: () => prompts,
    };
    return prompts;
  }

  private changed(sessionKey: string): void {
    for (const listener of this.listeners) listener(sessionKey);
  }

  add(sessionKey: string, text: string, sentBy: string, delivery: PromptDelivery, reason: string | null = null): SentPrompt {
    const state = delivery === 'INPUT' ? 'PENDING' : 'QUEUED';
    const prompt: SentPrompt = { id: randomUUID(), sessionKey, text, delivery, state, sentAt: this.now(), sentBy, atomUuid: null, reason };
    this.listOf(sessionKey).push(prompt);
    this.changed(sessionKey);
    return prompt;
  }

  of(sessionKey: string): SentPrompt[] {
    return [...(this.bySession.get(sessionKey) ?? [])];
  }

  get(id: string): SentPrompt | null {
    for (const list of this.bySession.values()) for (const prompt of list) if (prompt.id === id) return prompt;
    return null;
  }

  /** The open prompts of a session (QUEUED or PENDING), oldest first. */
  open(sessionKey: string, state?: SentPromptState): SentPrompt[] {
    return this.of(sessionKey).filter((p) => (state ? p.state === state : isOpen(p)));
  }

  /** Since when a session's user lines may settle a prompt; null when none is open. */
  openSince(sessionKey: string): number | null {
    const open = this.open(sessionKey);
    return open.length > 0 ? Math.min(...open.map((p) => p.sentAt)) - CLOCK_SLACK_MS : null;
  }

  /**
   * The user lines of a session since its oldest open prompt: a line with Loom's marker settles
   * the prompt it names; another prompt line the oldest pending input prompt with the same first
   * line. Pending input prompts sent before one that landed, and not landed themselves, were dropped.
   */
  landed(sessionKey: string, atoms: AtomMeta[]): void {
    const list = this.bySession.get(sessionKey);
    if (!list) return;
    let moved = false;
    for (const atom of atoms) {
      if (atom.type !== 'user' || !atom.promptLine || list.some((p) => p.atomUuid === atom.uuid)) continue;
      const marked = atom.author?.kind === 'human' ? atom.author.messageId : undefined;
      const match = marked
        ? list.find((p) => p.id === marked && isOpen(p))
        : list.find((p) => p.delivery === 'INPUT' && p.state === 'PENDING' && p.sentAt - CLOCK_SLACK_MS <= atom.t && promptLine(p.text) === atom.promptLine);
      if (!match) continue;
      Object.assign(match, { state: 'DELIVERED', atomUuid: atom.uuid, reason: null });
      for (const earlier of list) {
        if (earlier.delivery === 'INPUT' && earlier.sentAt < match.sentAt && earlier.state === 'PENDING') {
          Object.assign(earlier, { state: 'DROPPED', reason: 'a later prompt reached the session and this one never did' });
        }
      }
      moved = true;
    }
    if (moved) this.settle(sessionKey, list);
  }

  /** What held these prompts of a session ended before they reached the transcript. */
  drop(sessionKey: string, which: (prompt: SentPrompt) => boolean, reason: string): void {
    const list = this.bySession.get(sessionKey);
    const lost = list?.filter((p) => isOpen(p) && which(p)) ?? [];
    for (const prompt of lost) Object.assign(prompt, { state: 'DROPPED', reason });
    if (lost.length > 0) this.settle(sessionKey, list!);
  }

  /** A queued prompt is on its way in a Stop hook's reason: it lands as that hook's feedback. */
  handedOver(prompt: SentPrompt): void {
    Object.assign(prompt, { state: 'PENDING', reason: null });
    this.changed(prompt.sessionKey);
  }

  private settle(sessionKey: string, list: SentPrompt[]): void {
    const settled = list.filter((p) => !isOpen(p));
    if (settled.length > SETTLED_KEPT) {
      const gone = new Set(settled.slice(0, settled.length - SETTLED_KEPT));
      this.bySession.set(
        sessionKey,
        list.filter((p) => !gone.has(p)),
      );
    }
    this.changed(sessionKey);
  }

  private listOf(sessionKey: string): SentPrompt[] {
    let list = this.bySession.get(sessionKey);
    if (!list) {
      list = [];
      this.bySession.set(sessionKey, list);
    }
    return list;
  }
}

const isOpen = (p: SentPrompt): boolean => p.state === 'QUEUED' || p.state === 'PENDING';
