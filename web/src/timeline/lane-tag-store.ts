import { createStore } from '../lib/store';

/** The tag the timeline's lanes are narrowed to (its id), or null for every lane the tab filter leaves. */
export const laneTag = createStore<string | null>(null);
