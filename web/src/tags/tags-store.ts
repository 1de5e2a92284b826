import { useEffect } from 'react';
import { subscribe } from '../lib/gql';
import { type ResultOf, readFragment } from '../lib/graphql';
import { createStore } from '../lib/store';
import { useHosts } from '../network/hosts';
import { HOST_TAGS, TAGS_CHANGED } from './queries';

// The tags of every host the page shows, each kept current by its own viewsChanged (which sends
// the host's tags at once, then after each write). A host that goes down keeps the tags it had.

export type HostTags = ResultOf<typeof HOST_TAGS>;
export type Tag = HostTags['tags'][number];

interface Snapshot {
  /** by host name */
  hosts: ReadonlyMap<string, HostTags>;
  /** the tags each session carries, in its host's tag order */
  bySession: ReadonlyMap<string, readonly Tag[]>;
}

const store = createStore<Snapshot>({ hosts: new Map(), bySession: new Map() });
/** the unsubscribe of each host followed */
const following = new Map<string, () => void>();

/** Keeps a host's tags as a write or viewsChanged left them, unless something newer is held. */
export function keepTags(host: string, tags: HostTags): void {
  const held = store.get().hosts.get(host);
  if (held && held.seq > tags.seq) return;
  const hosts = new Map(store.get().hosts).set(host, tags);
  const bySession = new Map<string, Tag[]>();
  for (const { tags: list } of hosts.values()) for (const tag of list) for (const id of tag.memberIds) bySession.set(id, [...(bySession.get(id) ?? []), tag]);
  store.set({ hosts, bySession });
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
        subscribe(TAGS_CHANGED, { host }, ({ viewsChanged }) => keepTags(host, readFragment(HOST_TAGS, viewsChanged))),
      );
}

/** Every reachable host's tags; follows the hosts that are up (this machine's always). */
export function useTags(): Snapshot {
  const { hosts } = useHosts();
  const up = hosts
    .filter((h) => !h.status || h.status.state === 'UP')
    .map((h) => h.name)
    .join('\n');
  useEffect(() => follow(up ? up.split('\n') : []), [up]);
  return store.use();
}

const NONE: readonly Tag[] = [];

export function tagsOf(snapshot: Snapshot, sessionId: string): readonly Tag[] {
  return snapshot.bySession.get(sessionId) ?? NONE;
}
