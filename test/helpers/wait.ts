/** A value `if` takes as true: what `until` resolves with (`a && b` is typed as `b`). */
type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/** Polls until `check` returns a truthy value, or fails with `what` after `ms`. */
export async function until<T>(check: () => T | Promise<T>, what: string, ms = 10_000): Promise<Truthy<T>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
