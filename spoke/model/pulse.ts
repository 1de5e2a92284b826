// A wake-up signal as an async iterator. Notifications that arrive while the consumer is busy
// collapse into one, so a slow consumer never queues unbounded work: it wakes, reads the
// current state, and catches up in one step.

export class Pulse implements AsyncIterableIterator<void> {
  private pending = false;
  private closed = false;
  private waiter: ((result: IteratorResult<void>) => void) | null = null;

  constructor(private readonly onClose: () => void = () => {}) {}

  notify(): void {
    if (this.closed) return;
    if (this.waiter) {
      const wake = this.waiter;
      this.waiter = null;
      wake({ value: undefined, done: false });
    } else {
      this.pending = true;
    }
  }

  next(): Promise<IteratorResult<void>> {
    if (this.closed) return Promise.resolve({ value: undefined, done: true });
    if (this.pending) {
      this.pending = false;
      return Promise.resolve({ value: undefined, done: false });
    }
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  return(): Promise<IteratorResult<void>> {
    this.close();
    return Promise.resolve({ value: undefined, done: true });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.waiter?.({ value: undefined, done: true });
    this.waiter = null;
    this.onClose();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
