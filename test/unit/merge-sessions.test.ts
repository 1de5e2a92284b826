import { type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loomSchema } from '../../schema/index';
import type { RemoteDirectory, RemoteExecutor } from '../../schema/remote/delegate';
import { claimedBy } from '../../schema/remote/id-rewrite';
import { SLOW_HOST_MS } from '../../schema/remote/last-seen';
import { mergedSessions } from '../../schema/remote/merge-sessions';
import { RemoteValue } from '../../schema/remote/remote-value';
import type { SessionPage } from '../../spoke/model/source';
import type { SessionSummary } from '../../spoke/model/types';

// `sessions` on a hub: this machine's page and each linked host's merged into one list, run with
// hosts that are only functions. A fake host pages its own sessions by its own cursors (the
// position after each one), as a kernel does, so paging the merged list can be followed through.

const schema = loomSchema();

/** A session as its host knows it: `key` on the host, active at minute `minute`. */
interface Held {
  key: string;
  minute: number;
  name?: string;
}

const iso = (minute: number) => new Date(Date.UTC(2026, 0, 31, 9, minute)).toISOString();

/** A host's sessions most recently active first, from `after` (an index as text), `first` of them. */
function pageOf(held: Held[], first: number, after: string | null) {
  const sorted = [...held].sort((a, b) => b.minute - a.minute);
  const from = after === null ? 0 : Number(after);
  const slice = sorted.slice(from, from + first);
  return { slice, cursors: slice.map((_, i) => String(from + i + 1)), hasNextPage: from + first < sorted.length, totalCount: sorted.length };
}

function localHost(name: string, held: Held[]) {
  const asked: (string | null)[] = [];
  return {
    asked,
    page:
      (first: number) =>
      (after: string | null): SessionPage => {
        asked.push(after);
        const { slice, cursors, hasNextPage, totalCount } = pageOf(held, first, after);
        const sessions = slice.map((s) => ({ host: name, key: s.key, name: s.name ?? s.key, updatedAt: Date.parse(iso(s.minute)) }) as SessionSummary);
        return { sessions, cursors, hasNextPage, totalCount };
      },
  };
}

interface FakeRemote {
  executor: RemoteExecutor;
  /** the variables of every page this host was asked for */
  asked: Record<string, unknown>[];
  documents: string[];
  held: Held[];
  /** replaces how the host answers (slow, failing, misshapen) */
  answer: ((variables: Record<string, unknown>) => Promise<unknown>) | null;
}

/** A linked host the hub calls `alias`, whose kernel calls itself `remoteName`. */
function remoteHost(alias: string, remoteName: string, held: Held[]): FakeRemote {
  const remote: FakeRemote = {
    asked: [],
    documents: [],
    held,
    answer: null,
    executor: {
      alias,
      remoteName,
      fromRemote: claimedBy(remoteName, alias),
      queryLists: async (document: string, variables: Record<string, unknown>) => {
        remote.asked.push(variables);
        remote.documents.push(document);
        if (remote.answer) return remote.answer(variables);
        const { slice, cursors, hasNextPage, totalCount } = pageOf(remote.held, variables.first as number, variables.after as string | null);
        return {
          sessions: {
            totalCount,
            pageInfo: { hasNextPage },
            edges: slice.map((s, i) => ({
              cursor: cursors[i],
              node: { __typename: 'Session', id: `${remoteName}:${s.key}`, name: s.name ?? s.key, _loomUpdatedAt: iso(s.minute) },
            })),
          },
        };
      },
    } as unknown as RemoteExecutor,
  };
  return remote;
}

/** A host's answer holding one session, `id` as the host names it, named after its key. */
const onlySession = (id: string, minute: number) => ({
  sessions: {
    totalCount: 1,
    pageInfo: { hasNextPage: false },
    edges: [{ cursor: '1', node: { __typename: 'Session', id, name: id.slice(id.indexOf(':') + 1), _loomUpdatedAt: iso(minute) } }],
  },
});

/** The hub's linked hosts; `down` lists the aliases that are down now. */
function directoryOf(remotes: FakeRemote[]) {
  const down = new Set<string>();
  const directory = {
    linked: () => true,
    mayLink: () => true,
    get: (alias: string) => remotes.find((r) => r.executor.alias === alias)?.executor,
    up: () => remotes.filter((r) => !down.has(r.executor.alias)).map((r) => r.executor),
    aliases: () => remotes.map((r) => r.executor.alias),
    changes: () => {
      throw new Error('not used');
    },
  } as RemoteDirectory;
  return { directory, down };
}

/** What the resolver is given for the `sessions` field of `query`: the parts the merge reads. */
function infoFor(query = `{ sessions { edges { cursor node { id name } } } }`): GraphQLResolveInfo {
  const document = parse(query);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
  return { schema, fieldNodes: [operation.selectionSet.selections[0] as FieldNode], fragments } as unknown as GraphQLResolveInfo;
}

/** Each session of a merged page as its id on the hub, with its name when that is not its key. */
const idsOf = (page: SessionPage) =>
  page.sessions.map((s) => {
    if (s instanceof RemoteValue) return s.data.id === `${s.host}:${s.data.name}` ? s.data.id : `${s.data.id} ${s.data.name}`;
    return `${s.host}:${s.key}`;
  });

interface Setup {
  local: ReturnType<typeof localHost>;
  localName: string;
  directory: RemoteDirectory;
}
const merged = (setup: Setup, first: number, after: string | null = null, filter: unknown = null, info = infoFor()) =>
  mergedSessions(info, { first, after, filter }, setup.local.page(first), setup.localName, setup.directory);

/** The hub `hub` with sessions of its own, linking `gpu` (whose kernel calls itself `box`) and `cpu`. */
function threeHosts() {
  const local = localHost('hub', [
    { key: 'h5', minute: 50 },
    { key: 'h2', minute: 20 },
  ]);
  const gpu = remoteHost('gpu', 'box', [
    { key: 'g4', minute: 40 },
    { key: 'g1', minute: 10 },
  ]);
  const cpu = remoteHost('cpu', 'cpu', [{ key: 'c3', minute: 30 }]);
  const { directory, down } = directoryOf([gpu, cpu]);
  return { local, localName: 'hub', directory, down, gpu, cpu };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the sessions of every host, merged', () => {
  it('lists the sessions of every host in one list, most recently active first, with the hub’s names in remote ids', async () => {
    const setup = threeHosts();
    const page = await merged(setup, 10);
    expect(idsOf(page)).toEqual(['hub:h5', 'gpu:g4', 'cpu:c3', 'hub:h2', 'gpu:g1']);
    expect(page.sessions.filter((s) => s instanceof RemoteValue).map((s) => (s as RemoteValue).host)).toEqual(['gpu', 'cpu', 'gpu']);
    expect(page.totalCount).toBe(5);
    expect(page.hasNextPage).toBe(false);
  });

  it('asks each host for `first` sessions and serves only `first`, saying more follow', async () => {
    const setup = threeHosts();
    const page = await merged(setup, 2);
    expect(idsOf(page)).toEqual(['hub:h5', 'gpu:g4']);
    expect(page.cursors).toHaveLength(2);
    expect(setup.gpu.asked.map((v) => v.first)).toEqual([2]);
    expect(setup.cpu.asked.map((v) => v.first)).toEqual([2]);
    // no host has a second page, but sessions were left out of this one
    expect(page.hasNextPage).toBe(true);
    expect(page.totalCount).toBe(5);
  });

  it('says more follow when one host has more than it sent, though all it sent fits', async () => {
    const local = localHost('hub', [{ key: 'h1', minute: 1 }]);
    const gpu = remoteHost('gpu', 'box', [
      { key: 'g1', minute: 10 },
      { key: 'g2', minute: 20 },
      { key: 'g3', minute: 30 },
    ]);
    const { directory } = directoryOf([gpu]);
    // the local page of 1 holds all it has; gpu sends 1 of 3
    const page = await merged({ local, localName: 'hub', directory }, 1);
    expect(idsOf(page)).toEqual(['gpu:g3']);
    expect(page.hasNextPage).toBe(true);
    const all = await merged({ local, localName: 'hub', directory }, 4);
    expect(all.hasNextPage).toBe(false);
  });

  it('says more follow when a host has more, though the list holds all that came', async () => {
    const local = localHost('hub', []);
    const gpu = remoteHost('gpu', 'box', [
      { key: 'g1', minute: 10 },
      { key: 'g2', minute: 20 },
      { key: 'g3', minute: 30 },
    ]);
    const { directory } = directoryOf([gpu]);
    const page = await merged({ local, localName: 'hub', directory }, 2);
    expect(idsOf(page)).toEqual(['gpu:g3', 'gpu:g2']);
    expect(page.hasNextPage).toBe(true);
    expect(page.totalCount).toBe(3);
  });

  it('orders sessions active at the same moment by host name, whatever order the hosts are linked in', async () => {
    const local = localHost('m', [{ key: 'same', minute: 5 }]);
    const z = remoteHost('z', 'z', [{ key: 'same', minute: 5 }]);
    const a = remoteHost('a', 'a', [{ key: 'same', minute: 5 }]);
    const B = remoteHost('B', 'B', [{ key: 'same', minute: 5 }]);
    const { directory } = directoryOf([z, a, B]);
    const page = await merged({ local, localName: 'm', directory }, 10);
    expect(idsOf(page)).toEqual(['B:same', 'a:same', 'm:same', 'z:same']);
  });

  it('pages through the whole merged list with its cursors, every session once and in order', async () => {
    const setup = threeHosts();
    const seen: string[] = [];
    let after: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const page = await merged(setup, 2, after);
      seen.push(...idsOf(page));
      if (!page.hasNextPage) break;
      after = page.cursors.at(-1)!;
    }
    expect(seen).toEqual(['hub:h5', 'gpu:g4', 'cpu:c3', 'hub:h2', 'gpu:g1']);
  });

  it('starts each host’s next page after the last of its sessions served, and a host none of whose were served from where it was', async () => {
    const setup = threeHosts();
    const first = await merged(setup, 2);
    await merged(setup, 2, first.cursors[1]);
    expect(setup.local.asked).toEqual([null, '1']);
    expect(setup.gpu.asked.map((v) => v.after)).toEqual([null, '1']);
    expect(setup.cpu.asked.map((v) => v.after)).toEqual([null, null]);
  });

  it('gives each edge its own cursor: from the first edge’s, the next page starts right after it', async () => {
    const setup = threeHosts();
    const first = await merged(setup, 3);
    expect(idsOf(first)).toEqual(['hub:h5', 'gpu:g4', 'cpu:c3']);
    expect(new Set(first.cursors).size).toBe(3);
    const next = await merged(setup, 3, first.cursors[0]);
    expect(idsOf(next)).toEqual(['gpu:g4', 'cpu:c3', 'hub:h2']);
  });

  it('starts from the top for a cursor it cannot read', async () => {
    const setup = threeHosts();
    for (const after of ['not a cursor', Buffer.from('null').toString('base64url'), Buffer.from('[').toString('base64url')]) {
      expect(idsOf(await merged(setup, 1, after))).toEqual(['hub:h5']);
    }
  });

  it('sends each host the filter as the wire carries it: times as RFC 3339, no empty fields', async () => {
    const setup = threeHosts();
    await merged(setup, 5, null, { text: 'loom', dir: null, updatedSince: new Date(Date.UTC(2026, 0, 1)) });
    expect(setup.gpu.asked[0]).toEqual({ filter: { text: 'loom', updatedSince: '2026-01-01T00:00:00.000Z' }, first: 5, after: null });
  });

  it('asks each host for what the client asked of a session, through fragments and `nodes`, and the time it sorts by', async () => {
    const setup = threeHosts();
    await merged(setup, 5, null, null, infoFor(`{ sessions { nodes { key ...Card } } } fragment Card on Session { name dir }`));
    const [document] = setup.gpu.documents;
    expect(document).toMatch(/node \{[^}]*key[^}]*\.\.\.Card[^}]*_loomUpdatedAt: updatedAt/s);
    expect(document).toMatch(/fragment Card on Session \{\s*name\s+dir/);
  });

  it('leaves out a session of a host that does not fit what was asked, and keeps the host’s others', async () => {
    const setup = threeHosts();
    setup.gpu.answer = async () => ({
      sessions: {
        totalCount: 5,
        pageInfo: { hasNextPage: false },
        edges: [
          { cursor: '1', node: { __typename: 'Session', id: 'box:fine', name: 'fine', _loomUpdatedAt: iso(45) } },
          { cursor: '2', node: { __typename: 'Session', id: 'box:named-by-a-number', name: 42, _loomUpdatedAt: iso(44) } },
          { cursor: '3', node: { __typename: 'Session', id: 'box:no-time', name: 'no-time', _loomUpdatedAt: 'yesterday' } },
          { cursor: 4, node: { __typename: 'Session', id: 'box:bad-cursor', name: 'bad-cursor', _loomUpdatedAt: iso(43) } },
          // a DateTime may be sent as a number: it fits the scalar, but not the sort
          { cursor: '5', node: { __typename: 'Session', id: 'box:number-time', name: 'number-time', _loomUpdatedAt: Date.parse(iso(42)) } },
        ],
      },
    });
    const page = await merged(setup, 10);
    expect(idsOf(page)).toEqual(['hub:h5', 'gpu:fine', 'cpu:c3', 'hub:h2']);
  });

  it('counts a host whose answer has no page in it as not answering', async () => {
    const setup = threeHosts();
    setup.gpu.answer = async () => ({ sessions: { edges: [] } });
    const page = await merged(setup, 10);
    expect(idsOf(page)).toEqual(['hub:h5', 'cpu:c3', 'hub:h2']);
    expect(page.totalCount).toBe(3);
  });

  it('names a session a host claims for another host by that host’s alias', async () => {
    const setup = threeHosts();
    setup.gpu.answer = async () => onlySession('hub:h5', 59);
    const page = await merged(setup, 1);
    expect(page.sessions[0]).toBeInstanceOf(RemoteValue);
    expect((page.sessions[0] as unknown as RemoteValue).data.id).toBe('gpu:h5');
  });
});

describe('a host that is down or slow, in the merged sessions', () => {
  it('shows the sessions of a host that is down as they were last seen, and counts them', async () => {
    const setup = threeHosts();
    await merged(setup, 10);
    setup.down.add('gpu');
    setup.gpu.held = [{ key: 'g9', minute: 59 }];
    const page = await merged(setup, 10);
    expect(idsOf(page)).toEqual(['hub:h5', 'gpu:g4', 'cpu:c3', 'hub:h2', 'gpu:g1']);
    expect(page.totalCount).toBe(5);
    expect(setup.gpu.asked).toHaveLength(1);
  });

  it('shows nothing of a host that is down and was never seen', async () => {
    const setup = threeHosts();
    setup.down.add('gpu');
    const page = await merged(setup, 10);
    expect(idsOf(page)).toEqual(['hub:h5', 'cpu:c3', 'hub:h2']);
    expect(page.totalCount).toBe(3);
    expect(setup.gpu.asked).toHaveLength(0);
  });

  it('remembers each page by what was asked: another page of a host that is down is not the one seen', async () => {
    const setup = threeHosts();
    await merged(setup, 10);
    setup.down.add('gpu');
    const page = await merged(setup, 1);
    expect(idsOf(page)).toEqual(['hub:h5']);
    expect(page.totalCount).toBe(3);
  });

  it('shows a host whose answer fails as last seen', async () => {
    const setup = threeHosts();
    await merged(setup, 10);
    setup.gpu.answer = async () => {
      throw new Error('link dropped');
    };
    expect(idsOf(await merged(setup, 10))).toEqual(['hub:h5', 'gpu:g4', 'cpu:c3', 'hub:h2', 'gpu:g1']);
  });

  it(`waits ${SLOW_HOST_MS} ms for a slow host, then shows it as last seen, and keeps its late answer for the next read`, async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const setup = threeHosts();
    await merged(setup, 10);
    let answerLate: (data: unknown) => void = () => undefined;
    setup.gpu.answer = () =>
      new Promise((resolve) => {
        answerLate = resolve;
      });
    let done = false;
    const slow = merged(setup, 10).then((page) => {
      done = true;
      return page;
    });
    await vi.advanceTimersByTimeAsync(SLOW_HOST_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(idsOf(await slow)).toEqual(['hub:h5', 'gpu:g4', 'cpu:c3', 'hub:h2', 'gpu:g1']);

    answerLate(onlySession('box:late', 55));
    await vi.advanceTimersByTimeAsync(0);
    setup.down.add('gpu');
    const page = await merged(setup, 10);
    expect(idsOf(page)).toEqual(['gpu:late', 'hub:h5', 'cpu:c3', 'hub:h2']);
    expect(page.totalCount).toBe(4);
  });

  it('does not let a slow answer replace one asked for after it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const setup = threeHosts();
    let answerLate: (data: unknown) => void = () => undefined;
    setup.gpu.answer = () =>
      new Promise((resolve) => {
        answerLate = resolve;
      });
    const slow = merged(setup, 10);
    await vi.advanceTimersByTimeAsync(SLOW_HOST_MS);
    await slow;
    setup.gpu.answer = null;
    await merged(setup, 10); // asked later, answered at once: g4 and g1
    answerLate(onlySession('box:stale', 55));
    await vi.advanceTimersByTimeAsync(0);
    setup.down.add('gpu');
    expect(idsOf(await merged(setup, 10))).toEqual(['hub:h5', 'gpu:g4', 'cpu:c3', 'hub:h2', 'gpu:g1']);
  });
});
