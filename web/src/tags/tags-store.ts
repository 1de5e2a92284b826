import { useEffect } from 'react';
import { query, subscribe } from '../lib/gql';
import { type ResultOf, readFragment } from '../lib/graphql';
import { createStore } from '../lib/store';
import { useHosts } from '../network/hosts';
import { HOST_VIEWS, HOST_VIEWS_NOW, VIEWS_CHANGED } from './queries';

// The tags and saved views of every host the page shows, each kept current by its own viewsChanged
// (which sends the host's tags and views at once, then after each write). A host that goes down
// keeps the ones it had.

export type HostViews = ResultOf<typeof HOST_VIEWS>;
export type Tag = HostViews['tags'][number];
export type SavedView = HostViews['views'][number];

export interface TagsSnapshot {
  /** by host name */
  hosts: ReadonlyMap<string, HostViews>;
  /** the tags each session carries, in its host's tag order */
  bySession: ReadonlyMap<string, readonly Tag[]>;
}

const store = createStore<TagsSnapshot>({ hosts: new Map(), bySession: new Map() });
/** the unsubscribe of each host followed */
const following = new Map<string, () => void>();

/** Keeps a host's tags and views as a write or viewsChanged left them, unless something newer is held. */
export function keepViews(host: string, views: HostViews): void {
  const held = store.get().hosts.get(host);
  if (held && held.seq > views.seq) return;
  const hosts = new Map(store.get().hosts).set(host, views);
  const bySession = new Map<string, Tag[]>();
  for (const { tags: list } of hosts.values()) for (const tag of list) for (const id of tag.memberIds) bySession.set(id, [...(bySession.get(id) ?? []), tag]);
  store.set({ hosts, bySession });
}

/** Reads a host's tags and views again: after a whole write was refused because they had moved on. */
export async function reloadViews(host: string): Promise<void> {
  const { views } = await query(HOST_VIEWS_NOW, { host });
  keepViews(host, readFragment(HOST_VIEWS, views));
}

function follow(hosts: readonly string[]): void {
  for (const [host, stop] of following)
    if (!hosts.includes(host)) {
      stop();
      following.delete(host);
    }
  for (const host of hosts)
    if (!following.has(host))
      following.set(
        host,
        subscribe(VIEWS_CHANGED, { host }, ({ viewsChanged }) => keepViews(host, readFragment(HOST_VIEWS, viewsChanged))),
      );
}

/** Every reachable host's tags and views; follows the hosts that are up (this machine's always). */
export function useTags(): TagsSnapshot {
  const { hosts } = useHosts();
  const up = hosts
    .filter((h) => !h.status || h.status.state === 'UP')
    .map((h) => h.name)
    .join('\n');
  useEffect(() => follow(up ? up.split('\n') : []), [up]);
  return store.use();
}

const NONE: readonly Tag[] = [];

export function tagsOf(snapshot: TagsSnapshot, sessionId: string): readonly Tag[] {
  return snapshot.bySession.get(sessionId) ?? NONE;
}

/** The tag of that id, on any host followed. */
export function tagById(snapshot: TagsSnapshot, id: string): Tag | undefined {
  for (const { tags } of snapshot.hosts.values()) {
    const tag = tags.find((t) => t.id === id);
    if (tag) return tag;
  }
  return undefined;
}
