import { WORKING_WINDOW_MS } from './sign-of-life';

// An open ask leaves working when its session's last record grows too old, and nothing is
// appended to say so. One alarm per recently active session rings then, so that what follows
// the session's changes (feedChanged, sessionsChanged) hears of it without a new record.

export class SilenceAlarms {
  private readonly alarms = new Map<string, { at: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly now: () => number,
    private readonly ring: (key: string) => void,
  ) {}

  /** Rings for `key` once a record written at `lastRecordAt` is no longer a sign of life. */
  set(key: string, lastRecordAt: number): void {
    const at = lastRecordAt + WORKING_WINDOW_MS;
    const set = this.alarms.get(key);
    if (set?.at === at) return;
    clearTimeout(set?.timer);
    this.alarms.delete(key);
    this.arm(key, at);
  }

  private arm(key: string, at: number): void {
    const delay = at - this.now();
    if (delay < 0) return;
    // A record dated ahead of this clock rings again each window until it is past.
    const timer = setTimeout(() => {
      this.alarms.delete(key);
      // A timer fires by libuv's clock, read once per turn of the loop, and can come a moment
      // early by this one: rung then, the session was announced still at work, and the alarm
      // set again by that announcement rang a second time once the record was past.
      if (delay <= WORKING_WINDOW_MS && this.now() <= at) this.arm(key, at);
      else this.ring(key);
    }, Math.min(delay, WORKING_WINDOW_MS) + 1);
    timer.unref();
    this.alarms.set(key, { at, timer });
  }

  stop(): void {
    for (const { timer } of this.alarms.values()) clearTimeout(timer);
    this.alarms.clear();
  }
}
