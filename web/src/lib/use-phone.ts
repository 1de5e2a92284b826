import { useSyncExternalStore } from 'react';

// The phone layout, below 700 px wide. The stylesheets say the same with `@media (width < 700px)`;
// this is for what changes in the markup there, not only in the styles (the session drawer, the
// feed's column order).

const phone = window.matchMedia('(width < 700px)');

function subscribe(onChange: () => void): () => void {
  phone.addEventListener('change', onChange);
  return () => phone.removeEventListener('change', onChange);
}

/** Whether the window is a phone's width now; re-renders when it crosses 700 px. */
export const usePhone = (): boolean => useSyncExternalStore(subscribe, () => phone.matches);
