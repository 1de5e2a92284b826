import { mutate } from '../lib/gql';
import { readFragment } from '../lib/graphql';
import type { TabFilter } from '../tabs/filter';
import { HOST_VIEWS } from '../tags/queries';
import { wholeWrite } from '../tags/stale-write';
import { hostOf } from '../tags/tag-edits';
import { type HostViews, keepViews } from '../tags/tags-store';
import type { TabLens } from './lens-store';
import { DELETE_VIEW, SAVE_VIEW } from './queries';

// Saving and deleting views. A view is kept by one host: the one whose tags it names.

const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * Saves the strip's lens on `host` as the view `name` (replacing that host's view of the same
 * name), from the host's views as the page holds them, and answers the view's id.
 */
export async function saveView(host: string, held: HostViews, name: string, filter: TabFilter, lens: TabLens): Promise<string> {
  const replaced = held.views.find((v) => sameName(v.name, name));
  const view = { id: replaced?.id, name: name.trim(), filter: filter.text, tagIds: lens.tagIds, untagged: lens.untagged, order: lens.order };
  const { saveView: written } = await wholeWrite(host, { what: `the view "${view.name}"`, redo: 'save it again' }, () =>
    mutate(SAVE_VIEW, { host, view, expectedSeq: held.seq }),
  );
  keepViews(host, readFragment(HOST_VIEWS, written.views));
  if (!written.view) throw new Error('the host did not answer with the view it saved');
  return written.view.id;
}

export async function deleteView(id: string): Promise<void> {
  const { deleteView: written } = await mutate(DELETE_VIEW, { id });
  keepViews(hostOf(id), readFragment(HOST_VIEWS, written.views));
}
