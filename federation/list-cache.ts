// A hub's copy of one remote kernel's session lists. Merging `sessions` over several hosts asks
// each of them for a page; while nothing changes there, the same question gets the same answer,
// so it is kept and given again. The remote's `sessionsVersion` stream says when anything
// changes: it gives the version at once (from then on no change can pass unseen) and again at
// every change, which drops every kept answer. An answer is kept only if the version did not
// move while it was on its way; while the stream is not running, nothing is kept.

const MAX_ANSWERS = 32;

export interface VersionSource {
  stream<T>(query: string, variables: Record<string, unknown>): AsyncIterableIterator<T>;
}

export class ListCache {
  private version: number | null = null;
  private readonly answers = new Map<string, Record<string, unknown>>();
  private readonly versions: AsyncIterableIterator<{ sessionsVersion: number }>;

  constructor(remote: VersionSource) {
    this.versions = remote.stream<{ sessionsVersion: number }>('subscription { sessionsVersion }', {});
    void this.follow();
  }

  /** The answer to a read that depends only on the remote's sessions: kept, or asked with `ask`. */
  async read(key: string, ask: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const version = this.version;
    const kept = version === null ? undefined : this.answers.get(key);
    // a copy each time: callers rewrite the answer in place
    if (kept) return structuredClone(kept);
    const answer = await ask();
    if (version !== null && this.version === version) {
      if (this.answers.size >= MAX_ANSWERS) this.answers.delete(this.answers.keys().next().value!);
      this.answers.set(key, structuredClone(answer));
    }
    return answer;
  }

  close(): void {
    void this.versions.return?.();
    this.moved(null);
  }

  private async follow(): Promise<void> {
    try {
      for await (const { sessionsVersion } of this.versions) this.moved(sessionsVersion);
    } catch {
      // the link is going down, or the remote predates sessionsVersion: keep nothing
    }
    this.moved(null);
  }

  private moved(version: number | null): void {
    this.version = version;
    this.answers.clear();
  }
}
