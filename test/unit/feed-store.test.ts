import type { DocumentNode } from 'graphql';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { FeedGoal, GoalStatus } from '../../web/src/feed/types';

// The feed's store, run in node with the kernel replaced by a fake `query`, `mutate` and
// `subscribe` (web/src/lib/gql.ts) that wait until the test answers them. The store keeps its
// state in its module, so each test imports a fresh copy. `useFeed` is a React hook only through
// useSyncExternalStore: outside a component it is read as the store's current value.

interface Asked {
  variables: Record<string, unknown>;
  resolve(data: unknown): void;
  reject(err: unknown): void;
}

const kernel = vi.hoisted(() => ({
  /** every call in the order it was made: `query`, `mutate` or `subscribe`, with its document */
  calls: [] as { kind: string; document: string }[],
  reads: [] as Asked[],
  mutations: [] as (Asked & { document: string })[],
  changes: null as null | ((data: unknown) => void),
}));

vi.mock('../../web/src/lib/gql', async () => {
  // the store hands over typed documents: kept as their text, to see which operation was asked
  const { print } = await import('graphql');
  const text = (document: DocumentNode | string) => (typeof document === 'string' ? document : print(document));
  return {
    query: (document: DocumentNode, variables: Record<string, unknown> = {}) =>
      new Promise((resolve, reject) => {
        kernel.calls.push({ kind: 'query', document: text(document) });
        kernel.reads.push({ variables, resolve, reject });
      }),
    mutate: (document: DocumentNode, variables: Record<string, unknown> = {}) =>
      new Promise((resolve, reject) => {
        kernel.calls.push({ kind: 'mutate', document: text(document) });
        kernel.mutations.push({ document: text(document), variables, resolve, reject });
      }),
    subscribe: (document: DocumentNode, _variables: Record<string, unknown>, next: (data: unknown) => void) => {
      kernel.calls.push({ kind: 'subscribe', document: text(document) });
      kernel.changes = next;
      return () => undefined;
    },
  };
});

vi.mock('react', () => ({ useSyncExternalStore: (_subscribe: unknown, get: () => unknown) => get() }));

type FeedModule = typeof import('../../web/src/feed/feed-store');
type ConnectionModule = typeof import('../../web/src/lib/connection');
let feed: FeedModule;
let connection: ConnectionModule['connection'];

beforeEach(async () => {
  vi.useFakeTimers();
  vi.resetModules();
  kernel.calls.length = 0;
  kernel.reads.length = 0;
  kernel.mutations.length = 0;
  kernel.changes = null;
  feed = await import('../../web/src/feed/feed-store');
  ({ connection } = await import('../../web/src/lib/connection'));
});
afterEach(() => {
  vi.useRealTimers();
});

const goal = (id: string, status: GoalStatus, updatedAt: string, more: Partial<FeedGoal> = {}): FeedGoal => ({
  id,
  title: `title of ${id}`,
  status,
  rolledUpStatus: status,
  outcome: null,
  openedAt: '2026-01-31T08:00:00Z',
  updatedAt,
  block: null,
  answeredRequest: null,
  children: [],
  session: null,
  ...more,
});

const at = (minute: number) => `2026-01-31T09:${String(minute).padStart(2, '0')}:00Z`;

/** the kernel's answer to `feed`, columns as the kernel sends them */
function feedAnswer(goals: FeedGoal[]) {
  const of = (s: GoalStatus) => goals.filter((g) => g.rolledUpStatus === s);
  return { feed: { working: of('WORKING'), blocked: of('BLOCKED'), completed: of('COMPLETED') } };
}

/** each column's goals as `id title`, in the order the feed shows them */
function shown() {
  const { columns } = feed.useFeed();
  const ids = (list: FeedGoal[]) => list.map((g) => (g.title === `title of ${g.id}` ? g.id : `${g.id} ${g.title}`));
  return { WORKING: ids(columns.WORKING), BLOCKED: ids(columns.BLOCKED), COMPLETED: ids(columns.COMPLETED) };
}

const flush = () => vi.advanceTimersByTimeAsync(0);
const change = (sessionId: string, goals: FeedGoal[]) => kernel.changes!({ feedChanged: { sessionId, goals } });

/** The feed started and its first read answered with `goals`. */
async function loaded(goals: FeedGoal[]) {
  feed.useFeed();
  kernel.reads.at(-1)!.resolve(feedAnswer(goals));
  await flush();
}

const A1 = goal('laptop:a/1', 'WORKING', at(10));
const A2 = goal('laptop:a/2', 'BLOCKED', at(5));
const B1 = goal('gpu:b/1', 'WORKING', at(20));

describe('the feed store', () => {
  it('listens for changes before it reads the feed, so none made during the read is missed', () => {
    feed.useFeed();
    feed.useFeed();
    expect(kernel.calls.map((c) => c.kind)).toEqual(['subscribe', 'query']);
    expect(kernel.calls[0].document).toContain('feedChanged');
  });

  it('sorts each column most recently active first, then the later ask first, then by id', async () => {
    await loaded([
      goal('laptop:a/old', 'WORKING', at(1)),
      goal('laptop:a/x', 'WORKING', at(30), { openedAt: at(1) }),
      goal('laptop:b/later-ask', 'WORKING', at(30), { openedAt: at(2) }),
      goal('laptop:c/new', 'WORKING', at(40)),
      goal('laptop:d/2', 'COMPLETED', at(7)),
      goal('laptop:d/1', 'COMPLETED', at(7)),
    ]);
    expect(shown().WORKING).toEqual(['laptop:c/new', 'laptop:b/later-ask', 'laptop:a/x', 'laptop:a/old']);
    expect(shown().COMPLETED).toEqual(['laptop:d/1', 'laptop:d/2']);
    expect(feed.useFeed()).toMatchObject({ loaded: true, error: null });
  });

  it('replaces all of a session’s goals with those a change sends, and leaves other sessions alone', async () => {
    await loaded([A1, A2, B1]);
    change('laptop:a', [{ ...A1, rolledUpStatus: 'COMPLETED', title: 'done', updatedAt: at(50) }]);
    await vi.advanceTimersByTimeAsync(30);
    expect(shown()).toEqual({ WORKING: ['gpu:b/1'], BLOCKED: [], COMPLETED: ['laptop:a/1 done'] });
  });

  it('takes a session out of the feed when a change sends it no goals (its goals were cleared)', async () => {
    await loaded([A1, A2, B1]);
    change('laptop:a', []);
    await vi.advanceTimersByTimeAsync(30);
    expect(shown()).toEqual({ WORKING: ['gpu:b/1'], BLOCKED: [], COMPLETED: [] });
  });

  it('shows a burst of changes at once, 30 ms after its first, however many came', async () => {
    await loaded([A1, B1]);
    const before = feed.useFeed();
    change('laptop:a', [{ ...A1, title: 'a again' }]);
    await vi.advanceTimersByTimeAsync(10);
    change('gpu:b', [{ ...B1, title: 'b again' }]);
    await vi.advanceTimersByTimeAsync(10);
    change('laptop:c', [goal('laptop:c/1', 'BLOCKED', at(1))]);
    await vi.advanceTimersByTimeAsync(9);
    expect(feed.useFeed()).toBe(before);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown()).toEqual({ WORKING: ['gpu:b/1 b again', 'laptop:a/1 a again'], BLOCKED: ['laptop:c/1'], COMPLETED: [] });
    // once: the later changes of the burst publish nothing more
    const shownOnce = feed.useFeed();
    await vi.advanceTimersByTimeAsync(100);
    expect(feed.useFeed()).toBe(shownOnce);
  });

  it('starts a new burst with the first change after one was shown', async () => {
    await loaded([A1]);
    change('laptop:a', [{ ...A1, title: 'first' }]);
    await vi.advanceTimersByTimeAsync(30);
    const shownOnce = feed.useFeed();
    change('laptop:a', [{ ...A1, title: 'second' }]);
    await vi.advanceTimersByTimeAsync(29);
    expect(feed.useFeed()).toBe(shownOnce);
    await vi.advanceTimersByTimeAsync(1);
    expect(shown().WORKING).toEqual(['laptop:a/1 second']);
  });

  it('keeps a change that came while the feed was being read over what the read returns', async () => {
    feed.useFeed();
    change('laptop:a', [{ ...A1, title: 'changed during the read' }]);
    kernel.reads[0].resolve(feedAnswer([A1, A2, B1]));
    await flush();
    expect(shown()).toEqual({ WORKING: ['gpu:b/1', 'laptop:a/1 changed during the read'], BLOCKED: [], COMPLETED: [] });
  });

  it('keeps a session a change emptied during the read out of what the read returns', async () => {
    feed.useFeed();
    change('laptop:a', []);
    kernel.reads[0].resolve(feedAnswer([A1, A2, B1]));
    await flush();
    expect(shown().BLOCKED).toEqual([]);
    expect(shown().WORKING).toEqual(['gpu:b/1']);
  });

  it('does not put a change still waiting to be shown over a read of the feed made after it', async () => {
    await loaded([A1, B1]);
    change('laptop:a', [{ ...A1, title: 'older than the read' }]);
    feed.retryFeed();
    kernel.reads.at(-1)!.resolve(feedAnswer([{ ...A1, title: 'as read' }, B1]));
    await flush();
    await vi.advanceTimersByTimeAsync(30);
    expect(shown().WORKING).toEqual(['gpu:b/1', 'laptop:a/1 as read']);
  });

  it('no longer counts changes as newer than a read once that read is done', async () => {
    await loaded([A1]);
    feed.retryFeed();
    kernel.reads.at(-1)!.resolve(feedAnswer([A1]));
    await flush();
    change('laptop:a', [{ ...A1, title: 'after the read' }]);
    feed.retryFeed();
    kernel.reads.at(-1)!.resolve(feedAnswer([{ ...A1, title: 'read again' }]));
    await flush();
    await vi.advanceTimersByTimeAsync(30);
    expect(shown().WORKING).toEqual(['laptop:a/1 read again']);
  });

  // Two reads of the feed can be on their way at once (a clear's read and a reconnect's, two
  // clears in a row). The store keeps one record of changes made during "the" read, and the
  // first read to finish ends it; nothing orders the answers either.
  async function twoReadsOnTheirWay(): Promise<Asked[]> {
    await loaded([A1]);
    feed.retryFeed();
    feed.retryFeed();
    return kernel.reads.slice(1);
  }

  it('keeps a change that came during a second read, after the first read finished, over what the second read returns', async () => {
    const [first, second] = await twoReadsOnTheirWay();
    first.resolve(feedAnswer([A1]));
    await flush();
    change('laptop:a', [{ ...A1, title: 'changed during the second read' }]);
    second.resolve(feedAnswer([A1]));
    await flush();
    await vi.advanceTimersByTimeAsync(30);
    expect(shown().WORKING).toEqual(['laptop:a/1 changed during the second read']);
  });

  it('does not let a read that answers late replace the answer of a read made after it', async () => {
    const [earlier, later] = await twoReadsOnTheirWay();
    later.resolve(feedAnswer([{ ...A1, title: 'read later' }]));
    await flush();
    earlier.resolve(feedAnswer([{ ...A1, title: 'read earlier' }]));
    await flush();
    expect(shown().WORKING).toEqual(['laptop:a/1 read later']);
  });

  it('hides goals being cleared at once, and keeps them out once the kernel has cleared them', async () => {
    await loaded([A1, A2, B1]);
    const clearing = feed.clearGoals([A1.id, B1.id]);
    expect(shown()).toEqual({ WORKING: [], BLOCKED: ['laptop:a/2'], COMPLETED: [] });
    const [clear] = kernel.mutations;
    expect(clear.document).toContain('clearGoals');
    expect(clear.variables).toMatchObject({ ids: [A1.id, B1.id] });
    expect(clear.variables.key).toMatch(/^[0-9a-f-]{32,36}$/);
    clear.resolve({ clearGoals: { batchId: 'batch 1' } });
    await flush();
    kernel.reads.at(-1)!.resolve(feedAnswer([A2]));
    await clearing;
    expect(shown()).toEqual({ WORKING: [], BLOCKED: ['laptop:a/2'], COMPLETED: [] });
    expect(feed.useFeed().lastClear).toEqual({ batchId: 'batch 1', ids: [A1.id, B1.id] });
  });

  it('sends each clear with a key of its own, so the kernel tells two clicks from one sent twice', async () => {
    await loaded([A1, B1]);
    void feed.clearGoals([A1.id]).catch(() => undefined);
    void feed.clearGoals([B1.id]).catch(() => undefined);
    const [first, second] = kernel.mutations.map((m) => m.variables.key);
    expect(first).not.toEqual(second);
  });

  it('keeps a goal being cleared hidden when a change for its session arrives before the kernel answers', async () => {
    await loaded([A1, A2]);
    const clearing = feed.clearGoals([A1.id]);
    change('laptop:a', [{ ...A1, updatedAt: at(59) }, A2]);
    await vi.advanceTimersByTimeAsync(30);
    expect(shown()).toEqual({ WORKING: [], BLOCKED: ['laptop:a/2'], COMPLETED: [] });
    kernel.mutations[0].resolve({ clearGoals: { batchId: 'batch 1' } });
    await flush();
    kernel.reads.at(-1)!.resolve(feedAnswer([A2]));
    await clearing;
  });

  it('shows the goals again, with nothing to undo, when the kernel refuses a clear', async () => {
    await loaded([A1, A2]);
    const clearing = feed.clearGoals([A1.id]);
    kernel.mutations[0].reject(new Error('not allowed'));
    await expect(clearing).rejects.toThrow('not allowed');
    expect(shown()).toEqual({ WORKING: ['laptop:a/1'], BLOCKED: ['laptop:a/2'], COMPLETED: [] });
    expect(feed.useFeed().lastClear).toBeNull();
  });

  it('undoes a clear: nothing to undo at once, the batch sent back, the feed read again', async () => {
    await loaded([A2]);
    const batch = { batchId: 'batch 1', ids: [A1.id] };
    const clearing = feed.clearGoals([A1.id]);
    kernel.mutations[0].resolve({ clearGoals: { batchId: batch.batchId } });
    await flush();
    kernel.reads.at(-1)!.resolve(feedAnswer([A2]));
    await clearing;
    const undoing = feed.undoClear(batch);
    expect(feed.useFeed().lastClear).toBeNull();
    expect(kernel.mutations[1].document).toContain('undoClear');
    expect(kernel.mutations[1].variables).toEqual({ batchId: 'batch 1' });
    kernel.mutations[1].resolve({ undoClear: { restored: 1 } });
    await flush();
    kernel.reads.at(-1)!.resolve(feedAnswer([A1, A2]));
    await undoing;
    expect(shown()).toEqual({ WORKING: ['laptop:a/1'], BLOCKED: ['laptop:a/2'], COMPLETED: [] });
  });

  it('offers the undo again when the kernel refuses it', async () => {
    await loaded([A2]);
    const batch = { batchId: 'batch 1', ids: [A1.id] };
    const undoing = feed.undoClear(batch);
    kernel.mutations[0].reject(new Error('batch expired'));
    await expect(undoing).rejects.toThrow('batch expired');
    expect(feed.useFeed().lastClear).toEqual(batch);
  });

  it('says why the feed could not be read, and reads it again on retry', async () => {
    feed.useFeed();
    kernel.reads[0].reject(new Error('kernel gone'));
    await flush();
    expect(feed.useFeed()).toMatchObject({ loaded: true, error: 'kernel gone' });
    feed.retryFeed();
    kernel.reads[1].resolve(feedAnswer([A1]));
    await flush();
    expect(feed.useFeed()).toMatchObject({ loaded: true, error: null });
    expect(shown().WORKING).toEqual(['laptop:a/1']);
  });

  it('reads the feed again when the socket comes back, and then says the page is current', async () => {
    connection.opened();
    await loaded([A1]);
    connection.closed();
    connection.opened();
    expect(connection.get()).toBe('stale');
    expect(kernel.reads).toHaveLength(2);
    kernel.reads[1].resolve(feedAnswer([A1, B1]));
    await flush();
    expect(shown().WORKING).toEqual(['gpu:b/1', 'laptop:a/1']);
    expect(connection.get()).toBe('live');
  });
});
