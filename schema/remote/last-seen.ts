import type { RemoteDirectory } from './delegate';

// What each linked host last answered to each question: while a host is down, or slow, lists
// show its part as it was then (its Host says DOWN and since when), instead of losing it.

const KEPT = 32;

/** An answer, and when it was asked for: a slow answer must not replace one asked for later. */
type Seen = { value: unknown; asked: number };
const stores = new WeakMap<RemoteDirectory, Map<string, Map<string, Seen>>>();

/** The newest answers of one kind (sessions pages, timeline lanes…) a hub keeps, per host and question. */
export function lastSeen<T>(directory: RemoteDirectory, kind: string) {
  const kinds = stores.get(directory) ?? new Map<string, Map<string, Seen>>();
  stores.set(directory, kinds);
  const answers = kinds.get(kind) ?? new Map<string, Seen>();
  kinds.set(kind, answers);
  return {
    remember(key: string, value: T, asked: number): void {
      if ((answers.get(key)?.asked ?? -Infinity) > asked) return;
      answers.delete(key);
      answers.set(key, { value, asked });
      if (answers.size > KEPT) answers.delete(answers.keys().next().value!);
    },
    recall: (key: string): T | undefined => answers.get(key)?.value as T | undefined,
  };
}

/** How long a merged list waits for a host that is up before it shows that host as last seen. */
export const SLOW_HOST_MS = 3_000;

/**
 * Asks every linked host: those up answer now (and are remembered), those down as last seen, and
 * so do those up that take longer than SLOW_HOST_MS (their answer, when it comes, is remembered
 * for the next time): one slow host never holds the whole list.
 */
export async function askEveryHost<T>(directory: RemoteDirectory, kind: string, question: string, ask: (alias: string) => Promise<T>): Promise<T[]> {
  const memory = lastSeen<T>(directory, kind);
  const up = new Set(directory.up().map((r) => r.alias));
  const answers = await Promise.all(
    directory.aliases().map(async (alias) => {
      const key = `${alias}\n${question}`;
      if (!up.has(alias)) return memory.recall(key);
      const asked = performance.now();
      const fresh = Promise.resolve()
        .then(() => ask(alias))
        .then((answer) => {
          memory.remember(key, answer, asked);
          return answer;
        })
        .catch(() => undefined);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), SLOW_HOST_MS)));
      const answer = await Promise.race([fresh, late]);
      clearTimeout(timer);
      return answer ?? memory.recall(key);
    }),
  );
  return answers.filter((a): a is Awaited<T> => a !== undefined) as T[];
}
