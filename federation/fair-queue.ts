import { AsyncLocalStorage } from 'node:async_hooks';

// Places among a host's operations in flight, shared fairly between the hub's own clients: one
// socket on the hub carries everything its clients ask of that host, so a client with a hundred
// queries waiting takes turns with a client that has one, instead of holding it back.

const requesters = new AsyncLocalStorage<object>();

/** Runs `work` on behalf of one of the hub's clients (its socket): the places it waits for are that client's. */
export const asRequester = <T>(requester: object, work: () => T): T => requesters.run(requester, work);

/** Anything not asked on behalf of a client (the hub's own pings and catch-ups) waits as one. */
const HUB_ITSELF = {};

/**
 * A place that comes free with less time than this left before a waiter's deadline goes on to the
 * next in line, unused: the operation could not be answered in time, and the places ahead were
 * mostly given up at deadlines a moment before its own (asked at the same time), so which timer
 * fired first would decide whether it failed as waiting or was sent to fail as unanswered.
 */
const LAST_USEFUL_MS = 50;

export class FairQueue {
  private inFlight = 0;
  /** waiting turns by requester; a requester served goes to the back */
  private readonly waiting = new Map<object, (() => void)[]>();

  constructor(private readonly capacity: number) {}

  /** A place, by the deadline (else the error `late` makes); the release hands it on. */
  async acquire(deadline: number, late: () => Error): Promise<() => void> {
    if (this.inFlight < this.capacity) {
      this.inFlight++;
      return () => this.release();
    }
    const requester = requesters.getStore() ?? HUB_ITSELF;
    const lastUseful = deadline - LAST_USEFUL_MS;
    await new Promise<void>((resolve, reject) => {
      const placed = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.remove(requester, placed);
        reject(late());
      }, lastUseful - performance.now());
      const line = this.waiting.get(requester);
      if (line) line.push(placed);
      else this.waiting.set(requester, [placed]);
    });
    if (performance.now() >= lastUseful) {
      this.release();
      throw late();
    }
    return () => this.release();
  }

  private release(): void {
    const next = this.waiting.entries().next();
    if (next.done) {
      this.inFlight--;
      return;
    }
    const [requester, line] = next.value;
    this.waiting.delete(requester);
    const placed = line.shift()!;
    if (line.length > 0) this.waiting.set(requester, line); // to the back: the others go first
    placed();
  }

  private remove(requester: object, placed: () => void): void {
    const line = this.waiting.get(requester);
    if (!line) return;
    line.splice(line.indexOf(placed), 1);
    if (line.length === 0) this.waiting.delete(requester);
  }
}
