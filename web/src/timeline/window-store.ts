import { createStore } from '../lib/store';
import type { TimeWindow } from './time-window';

/** The timeline's window, kept outside the pane so it is still there after a visit to a chat. Null until first shown. */
export const timeWindow = createStore<TimeWindow | null>(null);
