import { promptSays } from '../chat/loom-prompt';
import type { ChatAtom } from '../chat/types';
import { isDismissed } from './dismissed';
import type { Outgoing, SentPrompt } from './types';

// The pending bubbles at the end of the chat: each prompt sent through Loom from the send until
// an event settles it, never a timer. A send shows at once (SENDING, before the mutation answers);
// then the kernel's word rules (sentPromptsChanged). It retires when its text is in the chat: the
// kernel says DELIVERED and the stream brought that atom, or the stream brought a prompt with its
// text first (the two travel apart, and the text must never show twice). DROPPED stays, with
// Retry and Dismiss, until dismissed.

export type BubbleState = 'SENDING' | 'QUEUED' | 'PENDING' | 'DELIVERED' | 'DROPPED' | 'FAILED';

export interface Bubble {
  /** the React key: the send's key when this page sent it, else the kernel's id */
  id: string;
  text: string;
  state: BubbleState;
  reason: string | null;
  /** the kernel's id of the prompt, once it named it (what Dismiss remembers) */
  promptId: string | null;
}

export interface OutboxState {
  /** the kernel's list of the session's sent prompts, as sentPromptsChanged said it last */
  prompts: readonly SentPrompt[];
  outgoing: readonly Outgoing[];
  /** prompts this page saw open: only these show as delivered while their atom is on its way */
  seenOpen: ReadonlySet<string>;
  /** bumps when a prompt is dismissed (the dismissals are kept outside this state) */
  dismissals: number;
}

/** a transcript line's time may trail the kernel's send by this much (spoke/drive/sent-prompts.ts) */
const CLOCK_SLACK_MS = 2000;

interface Candidate extends Bubble {
  atomId: string | null;
  /** the kernel's send time, when it named the prompt */
  sentAt: string | null;
  afterSequence: number | null;
}

export function bubblesOf(state: OutboxState, atoms: readonly ChatAtom[]): Bubble[] {
  const held = new Set(atoms.map((a) => a.id));
  // an atom a settled prompt names is that prompt's: no other bubble retires on it. A dismissed
  // one names none: Retry dismisses the prompt it sends again, and when the kernel credits the
  // landing to the old one (same text), the atom is the new one's.
  const taken = new Set(state.prompts.flatMap((p) => (p.atomId && !isDismissed(p.id) ? [p.atomId] : [])));
  const bubbles: Bubble[] = [];
  for (const { atomId, sentAt, afterSequence, ...bubble } of candidates(state)) {
    if (bubble.state === 'DELIVERED') {
      if (atomId === null || !held.has(atomId)) bubbles.push(bubble);
      continue;
    }
    // a queued prompt waits for the Stop hook: a line the person typed at the terminal is not it
    if (bubble.state === 'SENDING' || bubble.state === 'PENDING') {
      const landed = atoms.find((a) => !taken.has(a.id) && isPrompt(a) && landedAfter(a, sentAt, afterSequence) && promptSays(a, bubble.text));
      if (landed) {
        taken.add(landed.id);
        continue;
      }
    }
    bubbles.push(bubble);
  }
  return bubbles;
}

/** Every prompt that may show, in the order sent: the kernel's list, then this page's sends it does not list yet. */
function candidates(state: OutboxState): Candidate[] {
  const { prompts, outgoing } = state;
  // which of the kernel's prompts each of this page's sends is
  const sendOf = new Map<string, Outgoing>();
  for (const o of outgoing) if (o.answer) sendOf.set(o.answer.id, o);
  for (const o of outgoing) {
    if (o.answer || o.error) continue;
    const p = prompts.find((p) => !sendOf.has(p.id) && !o.known.has(p.id) && isOpen(p.state) && p.text === o.text);
    if (p) sendOf.set(p.id, o);
  }
  const matched = new Set(sendOf.values());

  const list: Candidate[] = [];
  for (const p of prompts) {
    const mine = sendOf.get(p.id);
    if (isDismissed(p.id)) continue;
    // delivered before this page watched it: its atom is history, not news
    if (p.state === 'DELIVERED' && !mine && !state.seenOpen.has(p.id)) continue;
    list.push(fromPrompt(p, mine));
  }
  for (const o of outgoing) {
    if (matched.has(o)) continue;
    if (o.error) list.push({ ...local(o), state: 'FAILED', reason: o.error });
    // answered and no longer listed: the kernel let it go
    else if (o.answer && !o.listed) list.push(fromPrompt(o.answer, o));
    else if (!o.answer) list.push(local(o));
  }
  return list;
}

function fromPrompt(p: SentPrompt, mine: Outgoing | undefined): Candidate {
  return {
    id: mine?.key ?? p.id,
    text: p.text,
    state: p.state,
    reason: p.reason,
    promptId: p.id,
    atomId: p.atomId,
    sentAt: p.sentAt,
    afterSequence: mine?.afterSequence ?? null,
  };
}

function local(o: Outgoing): Candidate {
  return { id: o.key, text: o.text, state: 'SENDING', reason: null, promptId: null, atomId: null, sentAt: null, afterSequence: o.afterSequence };
}

const isOpen = (state: BubbleState): boolean => state === 'SENDING' || state === 'QUEUED' || state === 'PENDING';

/** a line that opens a turn with a prompt */
const isPrompt = (atom: ChatAtom): boolean => atom.type === 'USER' && atom.promptLine !== null;

/** Whether an atom came after the send: by the chat's sequence when this page sent it, else by the kernel's clock. */
function landedAfter(atom: ChatAtom, sentAt: string | null, afterSequence: number | null): boolean {
  if (afterSequence !== null) return atom.sequence > afterSequence;
  return sentAt !== null && Date.parse(atom.t) >= Date.parse(sentAt) - CLOCK_SLACK_MS;
}
