import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TranscriptFeed } from '../../web/src/chat/transcript-feed';
import type { ChatAtom } from '../../web/src/chat/types';
import { connection } from '../../web/src/lib/connection';

// The chat's store for one session's atoms, run in node with the kernel replaced by a fake: the
// page queries go through a fake `query` (web/src/lib/gql.ts) and the stream through a fake urql
// client (web/src/lib/client.ts, which would open a WebSocket to `location` on import). Each query
// and each subscription waits until the test answers it, so the order things arrive in is the
// test's to choose.

/** What the kernel answers, as the feed reads it (the documents hand atoms over as masked fragments). */
interface TranscriptPage {
  entries: ChatAtom[];
  epoch: number;
  generation: number;
  maxSequence: number;
  hasOlder: boolean;
}
interface StreamFrame {
  kind: 'SNAPSHOT' | 'DELTA' | 'STOPPED';
  reset: boolean;
  reason: string | null;
  cursor: number;
  epoch: number;
  generation: number;
  atoms: ChatAtom[];
}

interface AskedPage {
  variables: Record<string, unknown>;
  resolve(data: unknown): void;
  reject(err: unknown): void;
}
interface OpenStream {
  variables: Record<string, unknown>;
  send(result: { data?: { sessionStream: StreamFrame }; error?: Error }): void;
  closed: boolean;
}

const kernel = vi.hoisted(() => ({ pages: [] as AskedPage[], streams: [] as OpenStream[] }));

vi.mock('../../web/src/lib/gql', () => ({
  query: (_document: string, variables: Record<string, unknown>) => new Promise((resolve, reject) => kernel.pages.push({ variables, resolve, reject })),
}));

vi.mock('../../web/src/lib/client', () => ({
  client: {
    subscription: (_document: string, variables: Record<string, unknown>) => ({
      subscribe(sink: OpenStream['send']) {
        // a frame sent after the unsubscribe still arrives: one may be on its way when the view lets go
        const stream: OpenStream = { variables, send: sink, closed: false };
        kernel.streams.push(stream);
        return { unsubscribe: () => (stream.closed = true) };
      },
    }),
  },
}));

const atom = (sequence: number, id = `atom ${sequence}`): ChatAtom => ({
  id,
  sequence,
  type: 'USER',
  subtype: null,
  t: '2026-01-31T09:00:00Z',
  end: null,
  model: null,
  promptLine: null,
  author: null,
  content: [],
});
const range = (from: number, to: number): ChatAtom[] => Array.from({ length: to - from + 1 }, (_, i) => atom(from + i));

const page = (entries: ChatAtom[], more: Partial<TranscriptPage> = {}): { transcript: TranscriptPage } => ({
  transcript: { entries, epoch: 1, generation: 1, maxSequence: entries.at(-1)?.sequence ?? 0, hasOlder: (entries[0]?.sequence ?? 1) > 1, ...more },
});

const frame = (atoms: ChatAtom[], more: Partial<StreamFrame> = {}): { data: { sessionStream: StreamFrame } } => ({
  data: { sessionStream: { kind: 'DELTA', reset: false, reason: null, cursor: atoms.at(-1)?.sequence ?? 0, epoch: 1, generation: 1, atoms, ...more } },
});

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const sequences = (feed: TranscriptFeed) => feed.state.get().atoms.map((a) => a.sequence);
const lastStream = () => kernel.streams.at(-1)!;
const running: TranscriptFeed[] = [];

/** A feed started, its newest page answered with `entries`, and its stream open. */
async function following(entries: ChatAtom[], more: Partial<TranscriptPage> = {}) {
  const feed = started();
  kernel.pages.at(-1)!.resolve(page(entries, more));
  await settle();
  return feed;
}

/** A feed started (stopped after the test), its newest page not answered yet. */
function started(sessionId = 'laptop:s1'): TranscriptFeed {
  const feed = new TranscriptFeed(sessionId);
  running.push(feed);
  feed.start();
  return feed;
}

/** A feed holding 101…103 of generation 1 whose older page came from generation 2: it started over. */
async function startedOver() {
  const feed = await following(range(101, 103), { generation: 1 });
  const left = lastStream();
  const loading = feed.loadOlder();
  kernel.pages.at(-1)!.resolve(page(range(1, 100), { generation: 2 }));
  await loading;
  return { feed, left };
}

/** The socket drops and comes back: what graphql-ws tells the connection store. */
function reconnect(): void {
  connection.opened();
  connection.closed();
  connection.opened();
}

beforeEach(() => {
  kernel.pages.length = 0;
  kernel.streams.length = 0;
});
afterEach(() => {
  for (const feed of running.splice(0)) feed.stop();
});

describe('a transcript feed', () => {
  it('shows the newest page, then follows the stream from that page’s fence', async () => {
    const feed = started();
    expect(kernel.pages.map((p) => p.variables)).toEqual([{ id: 'laptop:s1', limit: 150 }]);
    expect(feed.state.get().ready).toBe(false);
    kernel.pages[0].resolve(page(range(4, 6), { epoch: 3, generation: 2, maxSequence: 6 }));
    await settle();
    expect(feed.state.get()).toMatchObject({ ready: true, hasOlder: true, error: null });
    expect(sequences(feed)).toEqual([4, 5, 6]);
    expect(kernel.streams.map((s) => s.variables)).toEqual([{ id: 'laptop:s1', cursor: 6, epoch: 3, generation: 2 }]);
    // the stream's snapshot: what came after the fence; then deltas
    lastStream().send(frame([atom(7)], { kind: 'SNAPSHOT', epoch: 3, generation: 2 }));
    lastStream().send(frame([atom(8)], { epoch: 3, generation: 2 }));
    expect(sequences(feed)).toEqual([4, 5, 6, 7, 8]);
    expect(feed.state.get().resets).toBe(0);
  });

  it('subscribes only once the newest page has come, so no frame arrives before the atoms it follows', () => {
    started();
    expect(kernel.streams).toHaveLength(0);
  });

  it('keeps one row per sequence, the one it held first, when a delta repeats atoms it holds', async () => {
    const feed = await following(range(1, 3));
    lastStream().send(frame([atom(2, 'replayed 2'), atom(3, 'replayed 3'), atom(4)]));
    expect(feed.state.get().atoms.map((a) => a.id)).toEqual(['atom 1', 'atom 2', 'atom 3', 'atom 4']);
  });

  it('changes nothing, not even the state object, for a replayed frame that brings nothing new', async () => {
    const feed = await following(range(1, 3));
    const before = feed.state.get();
    lastStream().send(frame([atom(2, 'replayed 2'), atom(3, 'replayed 3')]));
    expect(feed.state.get()).toBe(before);
  });

  it('puts atoms that arrive out of order in sequence order', async () => {
    const feed = await following(range(1, 2));
    lastStream().send(frame([atom(5), atom(3), atom(4)], { cursor: 5 }));
    expect(sequences(feed)).toEqual([1, 2, 3, 4, 5]);
  });

  it('drops everything it held on a reset frame and starts over from that frame’s atoms', async () => {
    const feed = await following(range(4, 8));
    const reset = { kind: 'SNAPSHOT', reset: true, reason: 'GENERATION_MISMATCH', cursor: 21, generation: 2 } as const;
    lastStream().send(frame([atom(21, 'new 21'), atom(20, 'new 20')], reset));
    expect(feed.state.get().atoms.map((a) => a.id)).toEqual(['new 20', 'new 21']);
    expect(feed.state.get()).toMatchObject({ resets: 1, hasOlder: true });
  });

  it('has nothing older after a reset frame that starts at the session’s first atom', async () => {
    const feed = await following(range(4, 8));
    lastStream().send(frame(range(1, 2), { kind: 'SNAPSHOT', reset: true, epoch: 2 }));
    expect(sequences(feed)).toEqual([1, 2]);
    expect(feed.state.get()).toMatchObject({ resets: 1, hasOlder: false });
  });

  it('loads the page before its oldest atom and puts it in front, each atom once', async () => {
    const feed = await following(range(101, 103), { hasOlder: true });
    const loading = feed.loadOlder();
    expect(feed.state.get().loadingOlder).toBe(true);
    expect(kernel.pages.at(-1)!.variables).toEqual({ id: 'laptop:s1', limit: 200, before: 101 });
    kernel.pages.at(-1)!.resolve(page([atom(99), atom(100), atom(101, 'older copy of 101')], { hasOlder: false, maxSequence: 101 }));
    await loading;
    expect(sequences(feed)).toEqual([99, 100, 101, 102, 103]);
    expect(feed.state.get().atoms[2].id).toBe('atom 101');
    expect(feed.state.get()).toMatchObject({ hasOlder: false, loadingOlder: false });
  });

  it('asks once for an older page however often it is asked while that page is on its way', async () => {
    const feed = await following(range(101, 103));
    const asked = kernel.pages.length;
    const first = feed.loadOlder();
    const second = feed.loadOlder();
    expect(second).toBe(first);
    expect(kernel.pages.length).toBe(asked + 1);
    kernel.pages.at(-1)!.resolve(page(range(1, 100)));
    await first;
    await feed.loadOlder();
    expect(kernel.pages.length).toBe(asked + 1); // the start is held now: nothing older to ask for
  });

  it('asks for nothing older while it holds the session’s first atom', async () => {
    const feed = await following(range(1, 3), { hasOlder: false });
    await feed.loadOlder();
    expect(kernel.pages).toHaveLength(1);
  });

  it('starts over, dropping what it held, when an older page comes from a rewritten path', async () => {
    const { feed, left } = await startedOver();
    expect(feed.state.get()).toMatchObject({ atoms: [], ready: false, resets: 1 });
    expect(left.closed).toBe(true);
    expect(kernel.pages.at(-1)!.variables).toEqual({ id: 'laptop:s1', limit: 150 });
    kernel.pages.at(-1)!.resolve(page(range(50, 60), { generation: 2 }));
    await settle();
    expect(sequences(feed)).toEqual(range(50, 60).map((a) => a.sequence));
    expect(lastStream().variables).toMatchObject({ cursor: 60, generation: 2 });
  });

  it('starts over as well when an older page comes from another epoch', async () => {
    const feed = await following(range(101, 103), { epoch: 1 });
    const loading = feed.loadOlder();
    kernel.pages.at(-1)!.resolve(page(range(1, 100), { epoch: 2 }));
    await loading;
    expect(feed.state.get()).toMatchObject({ atoms: [], resets: 1 });
  });

  it('judges an older page by the fence of the last frame, not of the first page', async () => {
    const feed = await following(range(101, 103), { generation: 1 });
    lastStream().send(frame(range(50, 60), { reset: true, generation: 2 }));
    const loading = feed.loadOlder();
    expect(kernel.pages.at(-1)!.variables).toMatchObject({ before: 50 });
    kernel.pages.at(-1)!.resolve(page(range(40, 49), { generation: 2 }));
    await loading;
    expect(sequences(feed)).toEqual(range(40, 60).map((a) => a.sequence));
    expect(feed.state.get().resets).toBe(1);
  });

  it('shows the error of an older page that failed, and keeps what it held', async () => {
    const feed = await following(range(101, 103));
    const loading = feed.loadOlder();
    kernel.pages.at(-1)!.reject(new Error('[GraphQL] limit must be 1…1000'));
    await loading;
    expect(feed.state.get()).toMatchObject({ error: 'limit must be 1…1000', loadingOlder: false });
    expect(sequences(feed)).toEqual([101, 102, 103]);
  });

  it('resumes the stream from the last frame’s cursor, epoch and generation after the socket comes back', async () => {
    const feed = await following(range(1, 3));
    const first = lastStream();
    first.send(frame(range(4, 5)));
    first.send(frame(range(9, 10), { reset: true, epoch: 4, generation: 7 }));
    reconnect();
    expect(first.closed).toBe(true);
    expect(kernel.streams).toHaveLength(2);
    expect(lastStream().variables).toEqual({ id: 'laptop:s1', cursor: 10, epoch: 4, generation: 7 });
    expect(connection.get()).toBe('stale');
    lastStream().send(frame([atom(10), atom(11)], { epoch: 4, generation: 7 }));
    expect(sequences(feed)).toEqual([9, 10, 11]);
    expect(connection.get()).toBe('live');
  });

  it('waits for its first page before resuming a stream after a reconnect', () => {
    started();
    reconnect();
    expect(kernel.streams).toHaveLength(0);
  });

  it('shows a stream error, and clears it with the next frame even when that frame brings nothing new', async () => {
    const feed = await following(range(1, 3));
    lastStream().send({ error: new Error('[Network] socket closed') });
    expect(feed.state.get().error).toBe('socket closed');
    lastStream().send(frame([atom(3)]));
    expect(feed.state.get().error).toBeNull();
  });

  it('says why the first page failed, and is ready so the view stops waiting', async () => {
    const feed = started('laptop:gone');
    kernel.pages[0].reject(new Error('[GraphQL] no session laptop:gone'));
    await settle();
    expect(feed.state.get()).toMatchObject({ ready: true, error: 'no session laptop:gone', atoms: [] });
    expect(kernel.streams).toHaveLength(0);
  });

  it('ignores a page and frames that arrive after it was stopped', async () => {
    const feed = new TranscriptFeed('laptop:s1');
    feed.start();
    feed.stop();
    kernel.pages[0].resolve(page(range(1, 3)));
    await settle();
    expect(feed.state.get().ready).toBe(false);
    expect(kernel.streams).toHaveLength(0);

    const other = await following(range(1, 3));
    const stream = lastStream();
    other.stop();
    expect(stream.closed).toBe(true);
    stream.send(frame(range(4, 5)));
    stream.send({ error: new Error('socket closed') });
    expect(other.state.get()).toMatchObject({ error: null });
    expect(sequences(other)).toEqual([1, 2, 3]);
    reconnect();
    expect(kernel.streams).toHaveLength(1);
  });

  it('ignores a frame of the stream it left for a rewritten path', async () => {
    const { feed, left } = await startedOver();
    left.send(frame(range(104, 105), { generation: 1 }));
    expect(feed.state.get().atoms).toEqual([]);
  });

  it('ignores an older page that arrives after it was stopped', async () => {
    const feed = await following(range(101, 103));
    const loading = feed.loadOlder();
    feed.stop();
    kernel.pages.at(-1)!.resolve(page(range(1, 100)));
    await loading;
    expect(sequences(feed)).toEqual([101, 102, 103]);
  });

  it('loads older pages of 500 until the sequence asked for is held', async () => {
    const feed = await following(range(900, 1000));
    const jumping = feed.loadUntil(350);
    await settle();
    expect(kernel.pages.at(-1)!.variables).toEqual({ id: 'laptop:s1', limit: 500, before: 900 });
    kernel.pages.at(-1)!.resolve(page(range(400, 899)));
    await settle();
    expect(kernel.pages.at(-1)!.variables).toEqual({ id: 'laptop:s1', limit: 500, before: 400 });
    kernel.pages.at(-1)!.resolve(page(range(1, 399)));
    await jumping;
    expect(sequences(feed)[0]).toBe(1);
    expect(kernel.pages).toHaveLength(3);
  });

  it('stops jumping back when a page brings nothing, instead of asking forever', async () => {
    const feed = await following(range(900, 1000));
    const jumping = feed.loadUntil(1);
    await settle();
    kernel.pages.at(-1)!.resolve(page([], { hasOlder: true }));
    await jumping;
    expect(kernel.pages).toHaveLength(2);
  });

  it('asks for nothing when the sequence to jump to is already held', async () => {
    const feed = await following(range(900, 1000));
    await feed.loadUntil(950);
    expect(kernel.pages).toHaveLength(1);
  });
});
