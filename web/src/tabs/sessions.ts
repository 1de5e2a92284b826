import { connection } from '../lib/connection';
import { query, subscribe } from '../lib/gql';
import { type Enum, type ResultOf, readFragment } from '../lib/graphql';
import { oncePerBurst } from '../lib/once-per-burst';
import { createStore } from '../lib/store';
import { SESSION_TAB, SESSION_TAB_CHANGES, SESSION_TABS } from './queries';

// Every top-level session, kept current: loaded in pages once, then patched by sessionsChanged.
// One store for the tab strip, the timeline's lanes and the feed's tab labels.

export type LiveKind = Enum<'LiveStateKind'>;

/** One tab's fields (queries.ts): host status is null for this machine. */
export type SessionTab = ResultOf<typeof SESSION_TAB>;

interface Snapshot {
  loaded: boolean;
  error: string | null;
  /** most recently active first */
  list: SessionTab[];
  byId: Map<string, SessionTab>;
}

const store = createStore<Snapshot>({ loaded: false, error: null, list: [], byId: new Map() });
let started = false;
/** changes not yet published, by session id (null: no tab, removed or a subagent's) */
const changes = new Map<string, SessionTab | null>();
const publishChanges = oncePerBurst(() => {
  const byId = new Map(store.get().byId);
  for (const [id, session] of changes) {
    if (!session) byId.delete(id);
    // a page read since may already hold something newer
    else if ((byId.get(id)?.updatedAt ?? '') <= session.updatedAt) byId.set(id, session);
  }
  changes.clear();
  publish(byId);
});

function publish(byId: Map<string, SessionTab>, patch: Partial<Snapshot> = {}): void {
  const list = [...byId.values()].sort((a, b) => b.updatedAt.localeCompare(a.updatedAt) || a.id.localeCompare(b.id));
  store.set({ ...store.get(), ...patch, byId, list });
}

async function loadAll(): Promise<void> {
  const byId = new Map<string, SessionTab>();
  let after: string | null = null;
  for (;;) {
    const data: ResultOf<typeof SESSION_TABS> = await query(SESSION_TABS, { after });
    for (const s of readFragment(SESSION_TAB, data.sessions.nodes)) byId.set(s.id, s);
    if (!data.sessions.pageInfo.hasNextPage) break;
    after = data.sessions.pageInfo.endCursor;
  }
  // a change that arrived while the pages loaded is newer than what they say
  for (const [id, s] of store.get().byId) if ((byId.get(id)?.updatedAt ?? '') < s.updatedAt) byId.set(id, s);
  publish(byId, { loaded: true, error: null });
}

function start(): void {
  if (started) return;
  started = true;
  // changes first, so nothing that happens while the pages load is missed
  subscribe(SESSION_TAB_CHANGES, {}, ({ sessionsChanged: c }) => {
    connection.fresh();
    const session = c.session ? readFragment(SESSION_TAB, c.session) : null;
    changes.set(c.sessionId, c.kind === 'REMOVED' || session?.parent ? null : session);
    publishChanges();
  });
  loadAll().catch((err: Error) => publish(store.get().byId, { loaded: true, error: err.message }));
  // after a reconnect the list may have missed changes: read it again
  connection.subscribe(() => {
    if (connection.get() === 'stale')
      loadAll()
        .then(connection.fresh)
        .catch(() => undefined);
  });
}

/** A rename made on this page, shown at once: sessionsChanged does not report one. */
export function renamedSession(id: string, loomName: string | null): void {
  const session = store.get().byId.get(id);
  if (session) publish(new Map(store.get().byId).set(id, { ...session, loomName }));
}

export function useSessions(): Snapshot {
  start();
  return store.use();
}
