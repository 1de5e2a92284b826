import type { SentPrompt } from '../model/drive';
import { markedReason } from '../transcripts/loom-marker';
import type { SentPrompts } from './sent-prompts';

// Prompts for a session a terminal holds wait in its queue until its turn ends: Loom's Stop hook
// asks here, and a queued prompt becomes the hook's blocking reason, which Claude Code hands to
// the model as the next thing to do. Nothing is typed into a terminal. While the machine is away,
// the Stop hook of a session with nothing queued waits for a prompt before the session goes idle.

/** What Claude Code's Stop hook sends on stdin (the fields Loom reads). */
export interface StopHookInput {
  session_id: string;
  /** true when the session goes on because a Stop hook blocked the last stop */
  stop_hook_active?: boolean;
}

/**
 * How many stops in a row Loom blocks in one session: each delivers one prompt, and a session
 * that has been kept going this long is let go (its next prompt waits for its next turn end).
 */
export const CONSECUTIVE_BLOCKS = 8;

export class TerminalDelivery {
  private readonly waiters = new Map<string, Set<() => void>>();
  /** blocks in a row per Claude Code session, reset when a stop comes without stop_hook_active */
  private readonly blocks = new Map<string, number>();

  constructor(
    private readonly prompts: SentPrompts,
    private readonly options: {
      /** the Loom session key of a Claude Code session */
      keyOf: (claudeSessionId: string) => string;
      away: () => boolean;
      /** the longest a Stop hook is held while away */
      waitMs: number;
      /** a prompt went to this Claude Code session: it works again */
      delivered: (claudeSessionId: string) => void;
    },
  ) {}

  /** A prompt was queued for this session: a Stop hook waiting for one takes it. */
  queued(sessionKey: string): void {
    for (const wake of this.waiters.get(sessionKey) ?? []) wake();
  }

  /** The Stop hook asks: the reason to block with (the next queued prompt), or null to let the session stop. */
  async stopHookAsks(input: StopHookInput, signal: AbortSignal): Promise<string | null> {
    const key = this.options.keyOf(input.session_id);
    if (!input.stop_hook_active) this.blocks.delete(input.session_id);
    const blocked = this.blocks.get(input.session_id) ?? 0;
    if (blocked >= CONSECUTIVE_BLOCKS) return null;
    // a stop Loom itself caused is not waited on: the session has just had its prompt
    if (!this.nextFor(key) && this.options.away() && !input.stop_hook_active) await this.waitFor(key, signal);
    // taken after the wait, in one step with the hand-over: two hooks woken at once never share a prompt
    const next = this.nextFor(key);
    if (!next || signal.aborted) return null;
    this.prompts.handedOver(next);
    this.blocks.set(input.session_id, blocked + 1);
    this.options.delivered(input.session_id);
    return markedReason(next.id, next.text);
  }

  private nextFor(key: string): SentPrompt | null {
    return this.prompts.open(key, 'QUEUED')[0] ?? null;
  }

  /** Resolves when a prompt is queued for the session, the hook goes away, or the wait runs out. */
  private waitFor(key: string, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        const set = this.waiters.get(key);
        set?.delete(done);
        if (set?.size === 0) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, this.options.waitMs);
      signal.addEventListener('abort', done, { once: true });
      let set = this.waiters.get(key);
      if (!set) {
        set = new Set();
        this.waiters.set(key, set);
      }
      set.add(done);
    });
  }

  /** Is a Stop hook of this session waiting for a prompt now (the machine is away)? */
  isWaiting(sessionKey: string): boolean {
    return (this.waiters.get(sessionKey)?.size ?? 0) > 0;
  }

  /** Lets every waiting Stop hook go (the kernel stops). */
  stop(): void {
    for (const set of this.waiters.values()) for (const wake of [...set]) wake();
  }
}
