// Checks of the JSON Loom writes for itself and reads back (the index cache, sessions' goals), each
// a type guard whose type is the shape it checks. zod checked the cache before: a restart runs it
// once, cold, and over the 2,460 sessions of 1 GB of real transcripts it took 130–170 ms where
// these take 13–17 (docs/performance.md). They check, never convert: the value is used as parsed.

export type Check<T> = (value: unknown) => value is T;
export type Checked<C> = C extends Check<infer T> ? T : never;

export const string: Check<string> = (v): v is string => typeof v === 'string';
export const number: Check<number> = (v): v is number => typeof v === 'number';
export const boolean: Check<boolean> = (v): v is boolean => typeof v === 'boolean';

export const literal =
  <const T extends string | number>(...values: T[]): Check<T> =>
  (v): v is T =>
    values.includes(v as T);

export const nullable =
  <T>(check: Check<T>): Check<T | null> =>
  (v): v is T | null =>
    v === null || check(v);

export const array =
  <T>(check: Check<T>): Check<T[]> =>
  (v): v is T[] => {
    if (!Array.isArray(v)) return false;
    for (const item of v) if (!check(item)) return false;
    return true;
  };

export const tuple =
  <A, B>(a: Check<A>, b: Check<B>): Check<[A, B]> =>
  (v): v is [A, B] =>
    Array.isArray(v) && v.length === 2 && a(v[0]) && b(v[1]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const record =
  <T>(check: Check<T>): Check<Record<string, T>> =>
  (v): v is Record<string, T> => {
    if (!isObject(v)) return false;
    for (const key in v) if (!check(v[key])) return false;
    return true;
  };

/** An object with at least these keys, each passing its check. */
export function object<S extends Record<string, Check<unknown>>>(shape: S): Check<{ [K in keyof S]: Checked<S[K]> }> {
  const keys = Object.keys(shape);
  const checks = Object.values(shape);
  return (v): v is { [K in keyof S]: Checked<S[K]> } => {
    if (!isObject(v)) return false;
    for (let i = 0; i < keys.length; i++) if (!checks[i](v[keys[i]])) return false;
    return true;
  };
}
