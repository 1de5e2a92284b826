import type { TabFilter } from '../tabs/filter';
import { tabFilter } from '../tabs/filter-store';
import type { SessionTab } from '../tabs/sessions';
import { shownName } from '../tabs/shown-name';
import { type SavedView, type TagsSnapshot, tagById, tagsOf } from '../tags/tags-store';
import { EVERY_SESSION, type TabLens, tabLens } from './lens-store';

// A lens over the tab strip: which tags' sessions it shows and in what order. A saved view is a
// lens with a name (plus the filter's text); picking one sets the strip to it.

/** The tag ids of the lens that name a tag the page knows: a deleted tag narrows nothing. */
export const knownTags = (lens: TabLens, tags: TagsSnapshot) => lens.tagIds.filter((id) => tagById(tags, id) !== undefined);

/** The sessions the lens keeps, in its order. `list` is most recently active first, and stays so within a name or a directory. */
export function lensSessions(list: SessionTab[], lens: TabLens, tags: TagsSnapshot): SessionTab[] {
  const wanted = new Set(knownTags(lens, tags));
  const kept =
    wanted.size === 0 && !lens.untagged
      ? list
      : list.filter((s) => {
          const carried = tagsOf(tags, s.id);
          return carried.some((t) => wanted.has(t.id)) || (lens.untagged && carried.length === 0);
        });
  if (lens.order === 'NAME') return [...kept].sort((a, b) => shownName(a).localeCompare(shownName(b)));
  if (lens.order === 'PROJECT') return [...kept].sort((a, b) => a.dir.localeCompare(b.dir));
  return kept;
}

const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

/** The strip shows what the view says: its text, its tags, its order, and no directory. */
export function showsView(filter: TabFilter, lens: TabLens, view: SavedView): boolean {
  return filter.text === view.filter && filter.dir === '' && sameSet(lens.tagIds, view.tagIds) && lens.untagged === view.untagged && lens.order === view.order;
}

export const showsEverything = (filter: TabFilter, lens: TabLens) =>
  filter.text === '' && filter.dir === '' && lens.tagIds.length === 0 && !lens.untagged && lens.order === 'RECENT';

/** Sets the strip to a saved view. */
export function pickView(view: SavedView): void {
  tabFilter.set({ text: view.filter, dir: '' });
  tabLens.set({ tagIds: [...view.tagIds], untagged: view.untagged, order: view.order, viewId: view.id });
}

/** Sets the strip back to every session, most recent first. */
export function showEverything(): void {
  tabFilter.set({ text: '', dir: '' });
  tabLens.set(EVERY_SESSION);
}
