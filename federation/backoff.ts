/** Capped exponential backoff with jitter: 50–100 % of min(cap, base · 2^attempt). */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(attempt, 20));
  return ceiling * (0.5 + random() * 0.5);
}
