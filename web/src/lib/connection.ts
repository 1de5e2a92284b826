import { createStore } from './store';

// What the page knows about its WebSocket to the kernel. "stale" lasts from a reconnect until
// the first fresh frame arrives, so the banner never claims freshness it has not seen.

export type Connection = 'connecting' | 'live' | 'reconnecting' | 'stale';

const store = createStore<Connection>('connecting');
let everConnected = false;

export const connection = {
  opened(): void {
    store.set(everConnected ? 'stale' : 'live');
    everConnected = true;
  },
  closed(): void {
    if (everConnected) store.set('reconnecting');
  },
  /** a subscription delivered a frame: the page is current again */
  fresh(): void {
    if (store.get() === 'stale') store.set('live');
  },
  get: store.get,
  subscribe: store.subscribe,
  use: store.use,
};
