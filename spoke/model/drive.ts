// Sessions Loom drives and prompts it sends, as the model carries them. How processes are run
// and prompts matched to the transcript is spoke/drive's business.

/** Who holds a session's transcript: a process Loom started, a terminal, or nothing. */
export type SessionHolder = 'LOOM' | 'TERMINAL' | 'NONE';

/**
 * A prompt sent through Loom. QUEUED waits for a terminal session's turn end (the Stop hook
 * takes it); PENDING is in a driven process's input; DELIVERED landed in the transcript;
 * DROPPED never will (the process died holding it, or later prompts landed without it).
 */
export type SentPromptState = 'QUEUED' | 'PENDING' | 'DELIVERED' | 'DROPPED';

/** How a prompt reaches Claude Code: into the input of a process Loom drives, or as a terminal session's Stop hook reason. */
export type PromptDelivery = 'INPUT' | 'STOP_HOOK';

export interface SentPrompt {
  /** Loom's message id, also the marker a Stop hook delivery carries */
  id: string;
  /** the Loom session key (the session's id on this host without the host part) */
  sessionKey: string;
  text: string;
  delivery: PromptDelivery;
  state: SentPromptState;
  sentAt: number;
  /** `local` or `hub:<name>` */
  sentBy: string;
  /** the transcript line it became, once DELIVERED */
  atomUuid: string | null;
  /** why it is QUEUED or DROPPED, in one sentence */
  reason: string | null;
}
