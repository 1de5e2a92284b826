import { mutate } from '../lib/gql';
import { readFragment } from '../lib/graphql';
import { renamedSession } from '../tabs/sessions';
import { CREATE_TAG, HOST_TAGS, RENAME_SESSION, TAG_SESSION, UNTAG_SESSION } from './queries';
import { keepTags } from './tags-store';

// The edits the dashboard makes to tags and names. Each write answers with the host's tags as it
// left them, kept at once so the page does not wait for viewsChanged.

const hostOf = (id: string) => id.slice(0, id.indexOf(':'));

/** Creates a tag on the host and answers its id. */
export async function createTag(host: string, name: string, color: string): Promise<string> {
  const { createTag: written } = await mutate(CREATE_TAG, { host, name, color });
  keepTags(host, readFragment(HOST_TAGS, written.views));
  if (!written.tag) throw new Error('the host did not answer with the tag it created');
  return written.tag.id;
}

export async function tagSession(tagId: string, sessionId: string): Promise<void> {
  const { tagSession: written } = await mutate(TAG_SESSION, { tagId, sessionId });
  keepTags(hostOf(sessionId), readFragment(HOST_TAGS, written.views));
}

export async function untagSession(tagId: string, sessionId: string): Promise<void> {
  const { untagSession: written } = await mutate(UNTAG_SESSION, { tagId, sessionId });
  keepTags(hostOf(sessionId), readFragment(HOST_TAGS, written.views));
}

/** Names the session in Loom (an empty name gives it back its own) and answers the name it now has there. */
export async function renameSession(sessionId: string, name: string): Promise<string | null> {
  await mutate(RENAME_SESSION, { sessionId, name: name.trim() });
  const loomName = name.trim() || null;
  renamedSession(sessionId, loomName);
  return loomName;
}
