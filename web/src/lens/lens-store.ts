import type { Enum } from '../lib/graphql';
import { createSavedStore, fieldsOf } from '../lib/saved-store';

// What the tab strip shows beside the filter's text: the sessions of some tags (and/or the
// untagged), in an order, and the saved view this came from. Kept in this browser across reloads.

export type SessionOrder = Enum<'SessionOrder'>;
export const ORDERS: readonly SessionOrder[] = ['RECENT', 'NAME', 'PROJECT'];

export interface TabLens {
  /** tag ids (`host:id`): the sessions carrying any of them; none for every session */
  tagIds: string[];
  /** the sessions that carry no tag too (alone: only those) */
  untagged: boolean;
  order: SessionOrder;
  /** the saved view last picked or saved (`host:id`), shown as picked while the lens is still its */
  viewId: string | null;
}

export const EVERY_SESSION: TabLens = { tagIds: [], untagged: false, order: 'RECENT', viewId: null };

export const tabLens = createSavedStore<TabLens>('tabLens', EVERY_SESSION, (saved) => {
  const f = fieldsOf(saved);
  if (!f || !Array.isArray(f.tagIds) || typeof f.untagged !== 'boolean' || !ORDERS.includes(f.order as SessionOrder)) return null;
  return {
    tagIds: f.tagIds.filter((id): id is string => typeof id === 'string'),
    untagged: f.untagged,
    order: f.order as SessionOrder,
    viewId: typeof f.viewId === 'string' ? f.viewId : null,
  };
});
