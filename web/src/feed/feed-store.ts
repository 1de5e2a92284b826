import { connection } from '../lib/connection';
import { mutate, query, subscribe } from '../lib/gql';
import { readFragment } from '../lib/graphql';
import { idempotencyKey } from '../lib/idempotency-key';
import { oncePerBurst } from '../lib/once-per-burst';
import { createStore } from '../lib/store';
import { CLEAR_GOALS, FEED, FEED_CHANGES, GOAL_CARD, UNDO_CLEAR } from './queries';
import { COMPLETED_READ, type FeedGoal, type GoalStatus, sessionIdOf } from './types';

// Every top-level goal in the feed, kept current: read once with `feed`, then patched by
// `feedChanged`, which sends all of a session's goals in the feed whenever one changes (a clear
// or an undo, here or in another page, included). The page holds the most recent completed goals
// only (COMPLETED_READ): a long history holds tens of thousands, more than one answer may carry.
// Once it holds that many, its changes leave older completed goals out, so a first index that
// announces every session of a long history does not send the page each one's.

export interface ClearBatch {
  batchId: string;
  ids: string[];
}

export interface FeedSnapshot {
  loaded: boolean;
  error: string | null;
  /** by rolled-up status, most recently updated first */
  columns: Record<GoalStatus, FeedGoal[]>;
  /** the last clear, while it can be undone */
  lastClear: ClearBatch | null;
  /** the page holds the COMPLETED_READ most recent completed goals, and there may be older ones */
  olderCompleted: boolean;
}

const store = createStore<FeedSnapshot>({
  loaded: false,
  error: null,
  columns: { WORKING: [], BLOCKED: [], COMPLETED: [] },
  lastClear: null,
  olderCompleted: false,
});

/** the feed's goals, by session id */
let bySession = new Map<string, readonly FeedGoal[]>();
/** goals this page is clearing right now: hidden until the kernel answers */
const clearing = new Set<string>();
/** reads of the feed under way, each with the events that arrived meanwhile: newer than what it returns */
const reads = new Set<Map<string, readonly FeedGoal[]>>();
/** reads are numbered as they start; an answer older than one already shown is dropped */
let readsStarted = 0;
let newestShown = 0;
let started = false;
/** the feedChanged subscription, and the time before which it leaves completed goals out (null: none) */
let changes: { stop: () => void; completedSince: string | null } | null = null;

/** By last activity; of two goals active at the same moment, the later ask first. */
function newestFirst(a: FeedGoal, b: FeedGoal): number {
  return b.updatedAt.localeCompare(a.updatedAt) || b.openedAt.localeCompare(a.openedAt) || a.id.localeCompare(b.id);
}

function publish(patch: Partial<FeedSnapshot> = {}): void {
  const columns: FeedSnapshot['columns'] = { WORKING: [], BLOCKED: [], COMPLETED: [] };
  for (const goals of bySession.values()) {
    for (const goal of goals) if (!clearing.has(goal.id)) columns[goal.rolledUpStatus].push(goal);
  }
  for (const list of Object.values(columns)) list.sort(newestFirst);
  const { COMPLETED: completed } = columns;
  let olderCompleted = patch.olderCompleted ?? store.get().olderCompleted;
  if (completed.length > COMPLETED_READ) {
    completed.length = COMPLETED_READ;
    olderCompleted = true;
  }
  if (olderCompleted && completed.length === COMPLETED_READ && changes && sinceMoved(changes.completedSince, completed[COMPLETED_READ - 1].updatedAt)) {
    follow(completed[COMPLETED_READ - 1].updatedAt);
  }
  store.set({ ...store.get(), ...patch, olderCompleted, columns });
}

/**
 * Whether the oldest completed goal the page holds is now enough later than what its changes leave
 * out to subscribe again: an hour, so that the goals of an ordinary day do not subscribe again at
 * each completion, while a first index (whose workers announce the oldest sessions as the kernel
 * announces the newest) soon narrows what it is sent.
 */
function sinceMoved(subscribed: string | null, oldestHeld: string): boolean {
  return subscribed === null || Date.parse(oldestHeld) - Date.parse(subscribed) >= 60 * 60 * 1000;
}

/** Subscribes to feedChanged; the new subscription first, so no change falls between the two. */
function follow(completedSince: string | null): void {
  const previous = changes;
  const stop = subscribe(FEED_CHANGES, { completedSince }, ({ feedChanged }) => onEvent(feedChanged.sessionId, readFragment(GOAL_CARD, feedChanged.goals)));
  changes = { stop, completedSince };
  previous?.stop();
}

function place(sessionId: string, goals: readonly FeedGoal[]): void {
  if (goals.length > 0) bySession.set(sessionId, goals);
  else bySession.delete(sessionId);
}

const publishEvents = oncePerBurst(() => publish());

function onEvent(sessionId: string, goals: readonly FeedGoal[]): void {
  connection.fresh();
  for (const events of reads) events.set(sessionId, goals);
  place(sessionId, goals);
  publishEvents();
}

async function load(): Promise<void> {
  const number = ++readsStarted;
  const events = new Map<string, readonly FeedGoal[]>();
  reads.add(events);
  try {
    const { feed } = await query(FEED, { completedFirst: COMPLETED_READ });
    // a read made after this one has answered already: what it showed is newer
    if (number < newestShown) return;
    newestShown = number;
    bySession = new Map();
    for (const goal of readFragment(GOAL_CARD, [...feed.working, ...feed.blocked, ...feed.completed])) {
      bySession.set(sessionIdOf(goal.id), [...(bySession.get(sessionIdOf(goal.id)) ?? []), goal]);
    }
    for (const [sessionId, goals] of events) place(sessionId, goals);
    publish({ loaded: true, error: null, olderCompleted: feed.completed.length >= COMPLETED_READ });
    // what the page shows is current again (after a reconnect it may not have been)
    connection.fresh();
  } catch (err) {
    publish({ loaded: true, error: (err as Error).message });
  } finally {
    reads.delete(events);
  }
}

function start(): void {
  if (started) return;
  started = true;
  // changes first, so nothing that happens while the feed loads is missed
  follow(null);
  void load();
  // after a reconnect the feed may have missed changes: read it again
  connection.subscribe(() => {
    if (connection.get() === 'stale') void load();
  });
}

/** Takes goals out of the feed: hidden here at once; the kernel's feedChanged confirms it. */
export async function clearGoals(ids: string[]): Promise<void> {
  for (const id of ids) clearing.add(id);
  publish();
  let batch: ClearBatch | null = null;
  try {
    const { clearGoals: result } = await mutate(CLEAR_GOALS, { ids, key: idempotencyKey() });
    batch = { batchId: result.batchId, ids };
    // the read after the clear leaves them out, whether or not its events arrived yet
    await load();
  } finally {
    for (const id of ids) clearing.delete(id);
    publish(batch ? { lastClear: batch } : {});
  }
}

/** Puts a cleared batch back; feedChanged brings its goals into their columns again. */
export async function undoClear(batch: ClearBatch): Promise<void> {
  publish({ lastClear: null });
  try {
    await mutate(UNDO_CLEAR, { batchId: batch.batchId });
  } catch (err) {
    publish({ lastClear: batch });
    throw err;
  }
  await load();
}

/** Reads the feed again after it failed. */
export function retryFeed(): void {
  void load();
}

export function useFeed(): FeedSnapshot {
  start();
  return store.use();
}
