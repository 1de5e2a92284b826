// Several event streams as one: what each source yields, in arrival order. Sources can join
// while it runs (a host that comes up); a source that fails ends alone, the rest go on.

export class MergedStream<T> implements AsyncIterableIterator<T> {
  private readonly queue: T[] = [];
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
          this.push(next.value);
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
    if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiter = resolve));
  }

  async return(): Promise<IteratorResult<T>> {
    this.closed = true;
    this.onClose();
    for (const source of this.sources) void source.return?.();
    this.waiter?.({ value: undefined, done: true });
    return { value: undefined, done: true };
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  private push(value: T): void {
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake({ value, done: false });
    } else {
      this.queue.push(value);
    }
  }
}
