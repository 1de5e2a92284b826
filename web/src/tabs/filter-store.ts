import { createSavedStore, fieldsOf } from '../lib/saved-store';
import type { TabFilter } from './filter';

/** The tab filter, shared by the tab strip and the timeline's lanes; kept in this browser across reloads. */
export const tabFilter = createSavedStore<TabFilter>('tabFilter', { text: '', dir: '' }, (saved) => {
  const fields = fieldsOf(saved);
  return typeof fields?.text === 'string' && typeof fields.dir === 'string' ? { text: fields.text, dir: fields.dir } : null;
});
