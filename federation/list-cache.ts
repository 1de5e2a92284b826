// A hub's copy of one remote kernel's session lists. Merging `sessions` over several hosts asks
// each of them for a page; while nothing changes there, the same question gets the same answer,
// so it is kept and given again. The remote's `sessionsVersion` stream says when anything
// changes: it gives the version at once (from then on no change can pass unseen) and again at
// every change, which drops every kept answer. An answer is kept only if the version did not
// move while it was on its way; while the stream is not running, nothing is kept. A dropped
// stream is subscribed again after a pause, for as long as the link lasts; a remote that refuses
// it (an older Loom) is simply always asked.

import { RemoteAnswerError } from '../schema/remote/delegate';

const MAX_ANSWERS = 32;
const RESUBSCRIBE_MS = 2_000;

export interface VersionSource {
  stream<T>(query: string, variables: Record<string, unknown>): AsyncIterableIterator<T>;
}

export class ListCache {
  private version: number | null = null;
  private readonly answers = new Map<string, Record<string, unknown>>();
  private versions: AsyncIterableIterator<{ sessionsVersion: number }> | null = null;
  private closed = false;
  private pause: NodeJS.Timeout | undefined;
  private wake: (() => void) | null = null;

  constructor(private readonly remote: VersionSource) {
    void this.follow();
  }

  /**
   * The answer to a read that depends only on the remote's sessions: kept, or asked with `ask`.
   * It may be given again, so callers read it and never change it.
   */
  async read(key: string, ask: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const version = this.version;
    const kept = version === null ? undefined : this.answers.get(key);
    if (kept) return kept;
    const answer = await ask();
    if (version !== null && this.version === version) {
      if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(key, answer);
    }
    return answer;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.pause);
    this.wake?.();
    void this.versions?.return?.();
    this.moved(null);
  }

  private async follow(): Promise<void> {
    while (!this.closed) {
      this.versions = this.remote.stream<{ sessionsVersion: number }>('subscription { sessionsVersion }', {});
      try {
        for await (const { sessionsVersion } of this.versions) this.moved(sessionsVersion);
      } catch (err) {
        if (err instanceof RemoteAnswerError) this.closed = true; // refused, not dropped
      }
      this.moved(null);
      if (!this.closed) {
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          this.pause = setTimeout(resolve, RESUBSCRIBE_MS);
        });
      }
    }
  }

  private moved(version: number | null): void {
    this.version = version;
    this.answers.clear();
  }
}
