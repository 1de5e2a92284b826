import type { Enum, ResultOf } from '../lib/graphql';
import type { SENT_PROMPT } from './queries';

// The shapes the composer reads from the API, named (derived from queries.ts), and the page's own.

export type SentPrompt = ResultOf<typeof SENT_PROMPT>;
export type SessionHolder = Enum<'SessionHolder'>;
export type StartPermissionMode = Enum<'StartPermissionMode'>;

/** How a prompt reaches the session: into a process that holds it, or by resuming it. */
export type Delivery = 'send' | 'resume';

/** A prompt this page sent, from the click until the kernel's list carries it. */
export interface Outgoing {
  /** the idempotency key: the bubble's identity for as long as it shows */
  key: string;
  text: string;
  how: Delivery;
  /** the newest sequence the chat held at the send: the prompt lands after it */
  afterSequence: number;
  /** the kernel's prompts listed at the send: a new one with this text is this send, before the mutation answers */
  known: ReadonlySet<string>;
  /** what the mutation answered */
  answer: SentPrompt | null;
  /** why the mutation failed: the prompt was never sent */
  error: string | null;
  /** the kernel's list carried it once: when it drops out, the kernel let it go */
  listed: boolean;
}
