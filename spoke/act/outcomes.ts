// What an action with an idempotency key did, so the same key again returns it (or throws the
// same error) without acting twice. The newest KEYS_KEPT keys are kept.

const KEYS_KEPT = 1000;

type Outcome = { value: unknown } | { error: Error };

export class Outcomes {
  private readonly seen = new Map<string, Promise<Outcome>>();

  /** Runs `act` once per key; a repeat (even while the first runs) gets the first's outcome. */
  async once<T>(key: string, act: () => T | Promise<T>): Promise<T> {
    let outcome = this.seen.get(key);
    if (!outcome) {
      outcome = (async () => {
        try {
          return { value: await act() };
        } catch (err) {
          return { error: err as Error };
        }
      })();
      this.seen.set(key, outcome);
      if (this.seen.size > KEYS_KEPT) this.seen.delete(this.seen.keys().next().value!);
    }
    const done = await outcome;
    if ('error' in done) throw done.error;
    return done.value as T;
  }
}
