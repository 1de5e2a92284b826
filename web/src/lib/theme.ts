import { createStore } from './store';

// Light or dark follows the system unless the person picked one in settings (kept in this
// browser only).

export type ThemeChoice = 'system' | 'light' | 'dark';

const KEY = 'loom.theme';
const saved = localStorage.getItem(KEY);
const store = createStore<ThemeChoice>(saved === 'light' || saved === 'dark' ? saved : 'system');

function apply(choice: ThemeChoice): void {
  if (choice === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
  // the browser's bar (index.html's theme-color, one per scheme): a pinned theme keeps only its own
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"][data-scheme]')) {
    const scheme = meta.dataset.scheme;
    meta.media = choice === 'system' ? `(prefers-color-scheme: ${scheme})` : choice === scheme ? 'all' : 'not all';
  }
}
apply(store.get());

export const theme = {
  use: store.use,
  set(choice: ThemeChoice): void {
    localStorage.setItem(KEY, choice);
    store.set(choice);
    apply(choice);
  },
};
