// Several event streams as one: what each source yields, in arrival order. Sources can join
// while it runs (a host that comes up); a source that fails ends alone, the rest go on. A source
// is asked for its next event only once its last one was read, so a reader that is slow holds
// at most one event per source here, and the rest wait at the source (a remote's are bounded
// there: federation/remote-client.ts).

interface Waiting<T> {
  value: T;
  taken: () => void;
}

export class MergedStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: Waiting<T>[] = [];
  private readonly sources = new Set<AsyncIterator<T>>();
  private waiter: ((result: IteratorResult<T>) => void) | null = null;
  private closed = false;

  constructor(private readonly onClose: () => void = () => {}) {}

  /** Adds a source; `ended` runs when it ends, however it ends. */
  add(source: AsyncIterator<T>, ended: () => void = () => {}): void {
    if (this.closed) {
      void source.return?.();
      return;
    }
    this.sources.add(source);
    void (async () => {
      try {
        for (;;) {
          const next = await source.next();
          if (next.done || this.closed) break;
          await this.push(next.value);
        }
      } catch {
        // a remote that went away: its host status says so
      } finally {
        this.sources.delete(source);
        ended();
      }
    })();
  }

  next(): Promise<IteratorResult<T>> {
    const first = this.queue.shift();
    if (first) {
      first.taken();
      return Promise.resolve({ value: first.value, done: false });
    }
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiter = resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    this.closed = true;
    this.onClose();
    for (const source of this.sources) void source.return?.();
    for (const waiting of this.queue.splice(0)) waiting.taken();
    this.waiter?.({ value: undefined, done: true });
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  /** Hands the value to the reader; resolves once it has been read. */
  private push(value: T): Promise<void> {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake({ value, done: false });
      return Promise.resolve();
    }
    return new Promise((taken) => this.queue.push({ value, taken }));
  }
}
