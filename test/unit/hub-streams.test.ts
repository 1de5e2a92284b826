import { parse, subscribe } from 'graphql';
import { afterEach, expect, it } from 'vitest';
import { loomSchema } from '../../schema/index';
import type { RemoteDirectory, RemoteExecutor } from '../../schema/remote/delegate';
import { Pulse } from '../../spoke/model/pulse';
import { until } from '../helpers/wait';

// A hub's streams over one linked host, run through the real schema with a host that is only a
// function: what the hub asks of it as it joins, drops and comes back, and what the hub lets go
// when a stream ends. (The same streams over real kernels and SSH are in
// test/integration/federation.test.ts; these are the cases a real host cannot be made to show
// on cue.)

interface FakeHost {
  directory: RemoteDirectory;
  /** every subscription document the hub sent, in order */
  asked: string[];
  /** host-change listeners the hub holds */
  listeners: () => number;
  setUp(up: boolean, machine?: string): void;
}

function fakeHost(events: (document: string, n: number) => AsyncGenerator<Record<string, unknown>>): FakeHost {
  let up = false;
  const pulses = new Set<Pulse>();
  const asked: string[] = [];
  const remote = {
    alias: 'gpu',
    remoteName: 'box',
    toRemote: (id: string) => id.replace(/^gpu:/, 'box:'),
    fromRemote: (id: string) => id.replace(/^box:/, 'gpu:'),
    subscribe: (document: string) => {
      asked.push(document);
      return events(document, asked.length);
    },
  } as unknown as RemoteExecutor;
  const directory: RemoteDirectory = {
    linked: () => true,
    mayLink: () => true,
    get: () => remote,
    up: () => (up ? [remote] : []),
    aliases: () => ['gpu'],
    changes: () => {
      const pulse = new Pulse(() => pulses.delete(pulse));
      pulses.add(pulse);
      return pulse;
    },
  };
  return {
    directory,
    asked,
    listeners: () => pulses.size,
    setUp(next, machine = 'box') {
      up = next;
      (remote as { remoteName: string }).remoteName = machine;
      for (const pulse of pulses) pulse.notify();
    },
  };
}

const open: AsyncIterableIterator<unknown>[] = [];
afterEach(async () => {
  for (const stream of open.splice(0)) await stream.return?.();
});

async function subscribeOn(host: FakeHost, document: string): Promise<AsyncIterableIterator<unknown>> {
  const contextValue = { source: { sessionsChanged: () => new Pulse() }, hosts: { list: () => [] }, remotes: host.directory };
  return (await subscribe({ schema: loomSchema(), document: parse(document), contextValue })) as AsyncIterableIterator<unknown>;
}

/** a subscription being read, ended after the test */
async function follow(host: FakeHost, document: string): Promise<void> {
  const stream = await subscribeOn(host, document);
  open.push(stream);
  void stream.next().catch(() => undefined);
}

const sinceOf = (document: string) => /since: "([^"]+)"/.exec(document)?.[1] ?? null;
const FROM_THE_START = '1970-01-01T00:00:00.000Z';

it('asks a host that joins late for every session, and again for every session when that stream ends early, twice at most', async () => {
  // each stream ends at once, as one cut at the thousand-unread bound in the middle of its catch-up
  // biome-ignore lint/correctness/useYield: a stream that ends before its first event
  const host = fakeHost(async function* () {
    throw new Error('gpu sent more than 1000 events faster than they were read');
  });
  await follow(host, `subscription { sessionsChanged { sessionId } }`);
  host.setUp(true);
  await until(() => host.asked.length >= 4, 'three rejoins', 10_000);
  const [first, second, third, fourth] = host.asked.map(sinceOf);
  expect([first, second, third]).toEqual([FROM_THE_START, FROM_THE_START, FROM_THE_START]);
  // a reader too slow for the whole catch-up would loop on it: the hub settles for the last minutes
  expect(Date.now() - Date.parse(fourth!)).toBeGreaterThan(4 * 60_000);
  expect(Date.now() - Date.parse(fourth!)).toBeLessThan(6 * 60_000);
}, 15_000);

it('asks for every session again when an alias comes back naming another machine', async () => {
  const host = fakeHost(async function* (_document, n) {
    if (n === 1) {
      yield { sessionsChanged: { __typename: 'SessionChange', sessionId: 'box:s1' } };
      await new Promise((resolve) => setTimeout(resolve, 100));
      throw new Error('the link dropped');
    }
    await new Promise(() => {});
  });
  // up from the start, and the subscriber asked for no catch-up
  host.setUp(true);
  await follow(host, `subscription { sessionsChanged { sessionId } }`);
  await until(() => host.asked.length === 1, 'the first stream');
  expect(sinceOf(host.asked[0])).toBeNull();
  host.setUp(false);
  host.setUp(true, 'another-box');
  await until(() => host.asked.length === 2, 'the stream of the other machine', 5_000);
  expect(sinceOf(host.asked[1])).toBe(FROM_THE_START);
});

it('lets go of the hosts it followed when a remote session stream ends with a frame that does not fit', async () => {
  const host = fakeHost(async function* () {
    yield { sessionStream: { kind: 42 } };
  });
  host.setUp(true);
  const stream = await subscribeOn(host, `subscription { sessionStream(sessionId: "gpu:s1") { kind } }`);
  // read as graphql-ws reads it: to its end, with no return() after a throw
  await expect(
    (async () => {
      for await (const _ of stream);
    })(),
  ).rejects.toThrow(/^gpu sent a stream frame that does not fit the schema; the stream ends before its first frame$/);
  expect(host.listeners()).toBe(0);
});
