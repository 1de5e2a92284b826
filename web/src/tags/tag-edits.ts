import { mutate } from '../lib/gql';
import { readFragment } from '../lib/graphql';
import { renamedSession } from '../tabs/sessions';
import { CREATE_TAG, DELETE_TAG, HOST_VIEWS, RECOLOR_TAG, RENAME_SESSION, RENAME_TAG, SET_TAG_ORDER, TAG_SESSION, UNTAG_SESSION } from './queries';
import { wholeWrite } from './stale-write';
import { type HostViews, keepViews } from './tags-store';

// The edits the dashboard makes to tags and names. Each write answers with the host's tags and
// views as it left them, kept at once so the page does not wait for viewsChanged.

/** The host of a `host:id` id (a tag's, a session's). */
export const hostOf = (id: string) => id.slice(0, id.indexOf(':'));

/** Creates a tag on the host and answers its id. */
export async function createTag(host: string, name: string, color: string): Promise<string> {
  const { createTag: written } = await mutate(CREATE_TAG, { host, name, color });
  keepViews(host, readFragment(HOST_VIEWS, written.views));
  if (!written.tag) throw new Error('the host did not answer with the tag it created');
  return written.tag.id;
}

export async function renameTag(id: string, name: string): Promise<void> {
  const { renameTag: written } = await mutate(RENAME_TAG, { id, name: name.trim() });
  keepViews(hostOf(id), readFragment(HOST_VIEWS, written.views));
}

export async function recolorTag(id: string, color: string): Promise<void> {
  const { recolorTag: written } = await mutate(RECOLOR_TAG, { id, color });
  keepViews(hostOf(id), readFragment(HOST_VIEWS, written.views));
}

/** Deletes a tag; its sessions stay, and the host's saved views stop naming it. */
export async function deleteTag(id: string): Promise<void> {
  const { deleteTag: written } = await mutate(DELETE_TAG, { id });
  keepViews(hostOf(id), readFragment(HOST_VIEWS, written.views));
}

/** Moves one of a host's tags by `by` places (-1 up, +1 down), from the tags as the page holds them. */
export async function moveTag(host: string, held: HostViews, id: string, by: -1 | 1): Promise<void> {
  const order = held.tags.map((t) => t.id);
  const from = order.indexOf(id);
  const to = from + by;
  if (from === -1 || to < 0 || to >= order.length) return;
  [order[from], order[to]] = [order[to], order[from]];
  const { setTagOrder: written } = await wholeWrite(host, { what: 'the new order', redo: 'move it again' }, () =>
    mutate(SET_TAG_ORDER, { host, tagIds: order, expectedSeq: held.seq }),
  );
  keepViews(host, readFragment(HOST_VIEWS, written.views));
}

export async function tagSession(tagId: string, sessionId: string): Promise<void> {
  const { tagSession: written } = await mutate(TAG_SESSION, { tagId, sessionId });
  keepViews(hostOf(sessionId), readFragment(HOST_VIEWS, written.views));
}

export async function untagSession(tagId: string, sessionId: string): Promise<void> {
  const { untagSession: written } = await mutate(UNTAG_SESSION, { tagId, sessionId });
  keepViews(hostOf(sessionId), readFragment(HOST_VIEWS, written.views));
}

/** Names the session in Loom (an empty name gives it back its own) and answers the name it now has there. */
export async function renameSession(sessionId: string, name: string): Promise<string | null> {
  await mutate(RENAME_SESSION, { sessionId, name: name.trim() });
  const loomName = name.trim() || null;
  renamedSession(sessionId, loomName);
  return loomName;
}
