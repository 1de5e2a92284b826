import { createStore } from '../lib/store';
import type { TabFilter } from './filter';

/** The tab filter, shared by the tab strip and the timeline's lanes. */
export const tabFilter = createStore<TabFilter>({ text: '', dir: '' });
