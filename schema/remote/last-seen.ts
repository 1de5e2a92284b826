import type { RemoteDirectory } from './delegate';

// What each linked host last answered to each question: while a host is down, lists show its
// part as it was then (its Host says DOWN and since when), instead of losing it.

const KEPT = 32;
const stores = new WeakMap<RemoteDirectory, Map<string, Map<string, unknown>>>();

/** The newest answers of one kind (sessions pages, timeline lanes…) a hub keeps, per host and question. */
export function lastSeen<T>(directory: RemoteDirectory, kind: string) {
  const kinds = stores.get(directory) ?? new Map<string, Map<string, unknown>>();
  stores.set(directory, kinds);
  const answers = kinds.get(kind) ?? new Map<string, unknown>();
  kinds.set(kind, answers);
  return {
    remember(key: string, value: T): void {
      answers.delete(key);
      answers.set(key, value);
      if (answers.size > KEPT) answers.delete(answers.keys().next().value!);
    },
    recall: (key: string): T | undefined => answers.get(key) as T | undefined,
  };
}

/** Asks every linked host: those up answer now (and are remembered), those down as last seen. */
export async function askEveryHost<T>(directory: RemoteDirectory, kind: string, question: string, ask: (alias: string) => Promise<T>): Promise<T[]> {
  const memory = lastSeen<T>(directory, kind);
  const up = new Set(directory.up().map((r) => r.alias));
  const answers = await Promise.all(
    directory.aliases().map(async (alias) => {
      const key = `${alias}\n${question}`;
      const fresh = up.has(alias) ? await Promise.resolve().then(() => ask(alias)).catch(() => undefined) : undefined;
      if (fresh !== undefined) memory.remember(key, fresh);
      return fresh ?? memory.recall(key);
    }),
  );
  return answers.filter((a): a is Awaited<T> => a !== undefined) as T[];
}
