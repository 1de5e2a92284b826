import { createStore, type Store } from './store';

// A store this browser keeps across reloads (localStorage, under `loom.<name>`): the tab strip's
// filter, lens and grouping. What was kept is read back through `read`, which answers null for
// anything it does not recognise (an older shape, a hand edit): the store then starts at `initial`.

export function createSavedStore<T>(name: string, initial: T, read: (saved: unknown) => T | null): Store<T> {
  const key = `loom.${name}`;
  const store = createStore<T>(load(key, read) ?? initial);
  store.subscribe(() => {
    try {
      localStorage.setItem(key, JSON.stringify(store.get()));
    } catch {
      // storage full or off: kept for this page only
    }
  });
  return store;
}

function load<T>(key: string, read: (saved: unknown) => T | null): T | null {
  try {
    const text = localStorage.getItem(key);
    return text === null ? null : read(JSON.parse(text));
  } catch {
    return null;
  }
}

/** `value` as a plain object whose fields can be checked one by one, or null. */
export const fieldsOf = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
