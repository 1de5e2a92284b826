import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { configureRemote, FAST_LINKS, FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, say } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { until } from '../helpers/wait';

// Full-text search over real transcripts, through the real kernel over HTTP: a word only a tool's
// output holds finds its session and turn; phrases, filters and pages; a line appended later is
// found within a second; a deleted or unreadable index is built again.

const SEARCH = graphql(`
  query ($query: String!, $filter: SearchFilter, $first: Int, $after: String) {
    search(query: $query, filter: $filter, first: $first, after: $after) {
      complete hasNextPage endCursor unreachableHosts
      hits { id rank sequence rewound field at snippet { text hit } session { id } turn { id firstSequence atomCount } atom { id sequence } }
    }
  }
`);
const SEARCH_INDEXING = graphql(`query { kernel { searchIndexing { done filesDone filesTotal } } }`);
const TURN_ATOMS = graphql(`query ($id: ID!) { session(id: $id) { turns { id atoms { id } } } }`);

let root: string;
let kernel: TestKernel;
const PROJECTS = () => join(root, 'projects');
const SPOTTER = '-home-USER-projects-spotter-worktrees';

async function indexed(k: TestKernel): Promise<void> {
  await until(async () => (await k.gql(SEARCH_INDEXING)).data.kernel.searchIndexing?.done === true, 'the search index built', 30_000);
}

const search = async (query: string, extra: { filter?: Record<string, string>; first?: number; after?: string } = {}) => {
  const res = await kernel.gql(SEARCH, { query, ...extra });
  if (res.errors) throw new Error(res.errors[0].message);
  return res.data.search;
};
const marked = (snippet: { text: string; hit: boolean }[]) => snippet.map((p) => (p.hit ? `[${p.text}]` : p.text)).join('');

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-search-'));
  cpSync(FIXTURES, PROJECTS(), { recursive: true });
  kernel = await startTestKernel(PROJECTS(), { stateDir: join(root, 'state'), search: true });
  await indexed(kernel);
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('search over the fixtures', () => {
  it("finds a word only a tool's output holds, in its session and turn, with the word marked", async () => {
    const { hits, complete } = await search('archlinux');
    expect(complete).toBe(true);
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit).toMatchObject({ rank: 1, rewound: false, field: 'OUTPUT', session: { id: 'test:tool_heavy' } });
    expect(marked(hit.snippet).toLowerCase()).toContain('[archlinux]');
    // the one line of the fixture that holds it, and the turn that holds that line
    const lines = readFileSync(join(FIXTURES, SPOTTER, 'tool_heavy.jsonl'), 'utf8').split('\n');
    const holder = lines.filter((l) => l.toLowerCase().includes('archlinux')).map((l) => JSON.parse(l) as { uuid: string; type: string });
    expect(holder).toMatchObject([{ type: 'user' }]);
    expect(hit.id).toBe(`test:tool_heavy:${holder[0].uuid}`);
    expect(hit.atom).toEqual({ id: hit.id, sequence: hit.sequence });
    const turns = (await kernel.gql(TURN_ATOMS, { id: 'test:tool_heavy' })).data.session?.turns ?? [];
    const holding = turns.find((t) => t.atoms.some((a) => a.id === hit.id));
    expect(holding?.id).toBe(hit.turn?.id);
  });

  it("cuts each hit's snippet from its own line", async () => {
    const ATOM = graphql(
      `query ($id: ID!) { atom(id: $id) { content { __typename ... on TextBlock { text } ... on ToolUseBlock { input } ... on ToolResultBlock { content } ... on ThinkingBlock { thinking } } } }`,
    );
    const { hits } = await search('traceback', { first: 20 });
    expect(hits.length).toBeGreaterThan(3);
    expect(new Set(hits.map((h) => marked(h.snippet))).size).toBeGreaterThan(1);
    for (const hit of hits) {
      const line = JSON.stringify((await kernel.gql(ATOM, { id: hit.id })).data.atom?.content).toLowerCase();
      // the words around the hit, up to the first character JSON would escape
      const around = hit.snippet
        .map((p) => p.text)
        .join('')
        .replace(/^…/, '')
        .split(/["\\\n\t]/)[0]
        .toLowerCase();
      if (around.length >= 8) expect(line).toContain(around);
    }
  });

  it('matches a phrase only where its words stand in that order', async () => {
    const words = await search('npm test', { first: 100 });
    const phrase = await search('"npm test"', { first: 100 });
    expect(phrase.hits.length).toBeGreaterThan(0);
    expect(phrase.hits.length).toBeLessThan(words.hits.length);
    for (const hit of phrase.hits) expect(marked(hit.snippet).toLowerCase()).toMatch(/\[npm\s+test\]/);
  });

  it('narrows by tool, directory and date, in the query text or the filter alike', async () => {
    const bash = await search('tool:Bash npm', { first: 50 });
    expect(bash.hits.length).toBeGreaterThan(0);
    for (const hit of bash.hits) expect(['INPUT', 'OUTPUT', 'TOOLS', 'TEXT']).toContain(hit.field);
    const viaFilter = await search('npm', { filter: { tool: 'Bash' }, first: 50 });
    expect(viaFilter.hits.map((h) => h.id)).toEqual(bash.hits.map((h) => h.id));
    const passed = await search('passed', { first: 100 });
    const spotter = await search('passed dir:/home/USER/projects/spotter-worktrees', { first: 100 });
    expect(spotter.hits.length).toBeGreaterThan(0);
    expect(spotter.hits.length).toBeLessThan(passed.hits.length);
    const traceback = await search('traceback', { first: 100 });
    expect(traceback.hasNextPage).toBe(false);
    const times = traceback.hits.map((h) => Date.parse(h.at)).sort((a, b) => a - b);
    const middle = new Date(times[Math.floor(times.length / 2)]).toISOString();
    const later = await search(`traceback after:${middle}`, { first: 100 });
    expect(later.hits.length).toBeGreaterThan(0);
    for (const hit of later.hits) expect(Date.parse(hit.at)).toBeGreaterThanOrEqual(Date.parse(middle));
    const earlier = await search('traceback', { filter: { until: middle }, first: 100 });
    expect(earlier.hits.length).toBeGreaterThan(0);
    expect(earlier.hits.length + later.hits.length).toBe(traceback.hits.length);
  });

  it('pages with endCursor, each hit once, in rank order', async () => {
    const all = await search('test', { first: 30 });
    const one = await search('test', { first: 15 });
    const two = await search('test', { first: 15, after: one.endCursor! });
    expect([...one.hits, ...two.hits].map((h) => h.id)).toEqual(all.hits.map((h) => h.id));
    expect(two.hits[0].rank).toBe(16);
  });

  it('answers a question it cannot take with BAD_USER_INPUT and one sentence', async () => {
    for (const [query, message] of [
      ['', /type a word/],
      ['before:yesterday word', /before:yesterday is not a date/],
    ] as const) {
      const res = await kernel.gql(SEARCH, { query });
      expect(res.errors?.[0]).toMatchObject({ message: expect.stringMatching(message), extensions: { code: 'BAD_USER_INPUT' } });
    }
    expect((await kernel.gql(SEARCH, { query: 'x', after: 'nonsense' })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('finds a line appended after the index was built within a second', async () => {
    const file = join(PROJECTS(), SPOTTER, 'tool_heavy.jsonl');
    appendFileSync(file, line(assistant('appended-1', null, [say('the quokkaphrase arrived late')])));
    const started = Date.now();
    await until(async () => (await search('quokkaphrase')).hits.length === 1, 'the appended line found', 1000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect((await search('quokkaphrase')).hits[0]).toMatchObject({ id: 'test:tool_heavy:appended-1', field: 'TEXT' });
  });
});

describe('a line too long to parse for search', () => {
  it('is skipped with one log line, and the lines after it are still found', async () => {
    const file = join(PROJECTS(), SPOTTER, 'giant-output.jsonl');
    const giant = line(assistant('giant-1', null, [say(`wombatword ${'x'.repeat(17 << 20)}`)]));
    writeFileSync(file, giant + line(assistant('after-giant', 'giant-1', [say('the numbatword after it')])));
    await until(async () => (await search('numbatword')).hits.length === 1, 'the line after the giant one found', 10_000);
    expect((await search('wombatword')).hits).toHaveLength(0);
    expect(kernel.logs.filter((l) => l.startsWith('search skips 1 line(s) of') && l.includes('giant-output.jsonl'))).toHaveLength(1);
  }, 30_000);
});

describe('the index on disk', () => {
  it('is built again when deleted, and when unreadable, saying so in one log line', async () => {
    await kernel.close();
    rmSync(join(root, 'state', 'search.db'));
    kernel = await startTestKernel(PROJECTS(), { stateDir: join(root, 'state'), search: true });
    await indexed(kernel);
    expect((await search('archlinux')).hits).toHaveLength(1);
    expect(kernel.logs.some((l) => l.startsWith('building the search index'))).toBe(true);

    await kernel.close();
    for (const suffix of ['-wal', '-shm']) rmSync(join(root, 'state', `search.db${suffix}`), { force: true });
    writeFileSync(join(root, 'state', 'search.db'), 'this is not a database, only words');
    kernel = await startTestKernel(PROJECTS(), { stateDir: join(root, 'state'), search: true });
    await indexed(kernel);
    expect((await search('archlinux')).hits).toHaveLength(1);
    expect(kernel.logs.filter((l) => l.includes('cannot be read'))).toHaveLength(1);
  }, 60_000);
});

describe('search through a hub', () => {
  let sshd: TestSshd;
  let remote: TestKernel;
  let hub: TestKernel;
  const HUB_PROJECT = '-Users-dain-workspace-claude-code-log-sample';
  const REMOTE_PROJECT = '-src-deep-manifest';
  beforeAll(async () => {
    sshd = await startSshd();
    cpSync(join(FIXTURES, REMOTE_PROJECT), join(root, 'gpu-projects', REMOTE_PROJECT), { recursive: true });
    cpSync(join(FIXTURES, HUB_PROJECT), join(root, 'hub-projects', HUB_PROJECT), { recursive: true });
    remote = await startTestKernel(join(root, 'gpu-projects'), { hostName: 'gpubox', stateDir: join(root, 'gpu-state'), search: true });
    hub = await startTestKernel(join(root, 'hub-projects'), {
      hostName: 'laptop',
      stateDir: join(root, 'hub-state'),
      search: true,
      federation: { home: sshd.home, ...FAST_LINKS },
    });
    await Promise.all([indexed(remote), indexed(hub)]);
    configureRemote(hub, { name: 'gpu', target: `${sshd.user}@127.0.0.1:${sshd.port}`, stateDir: join(root, 'gpu-state') });
    const link = graphql(`mutation ($target: String!) { linkHost(target: $target, name: "gpu", trust: DIRECTED) { status { state } } }`);
    expect((await hub.gql(link, { target: `${sshd.user}@127.0.0.1:${sshd.port}` })).data.linkHost.status?.state).toBe('UP');
  }, 90_000);
  afterAll(async () => {
    await hub?.close();
    await remote?.close();
    await sshd?.close();
  });

  const hubSearch = async (query: string, after?: string) => {
    const res = await hub.gql(SEARCH, { query, first: 10, after });
    if (res.errors) throw new Error(res.errors[0].message);
    return res.data.search;
  };

  it("puts both hosts' hits in one list, fused by each host's own rank, every id naming its host", async () => {
    const { hits, complete, unreachableHosts } = await hubSearch('passed');
    expect(complete).toBe(true);
    expect(unreachableHosts).toEqual([]);
    const hosts = hits.map((h) => h.id.split(':')[0]);
    expect(new Set(hosts)).toEqual(new Set(['laptop', 'gpu']));
    for (const hit of hits) expect(hit.session?.id.split(':')[0]).toBe(hit.id.split(':')[0]);
    // one host's first, the other's first, then each host's second…: never a score compared across hosts
    expect(hits.map((h) => h.rank)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    // each host's list in the order the host itself ranks it
    const own = (await remote.gql(SEARCH, { query: 'passed', first: 5 })).data.search.hits.map((h) => h.id.replace(/^gpubox:/, 'gpu:'));
    expect(hits.filter((h) => h.id.startsWith('gpu:')).map((h) => h.id)).toEqual(own);
  });

  it('pages over both hosts with one cursor, each hit once', async () => {
    const first = await hubSearch('passed');
    const second = await hubSearch('passed', first.endCursor!);
    const ids = [...first.hits, ...second.hits].map((h) => h.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(second.hits.map((h) => h.rank).slice(0, 2)).toEqual([6, 6]);
  });

  it('asks only the host named with host:, and the chat of a hit opens on its host', async () => {
    const { hits } = await hubSearch('host:gpu passed');
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(hit.id).toMatch(/^gpu:/);
    const atom = graphql(`query ($id: ID!) { atom(id: $id) { id sequence } }`);
    expect((await hub.gql(atom, { id: hits[0].id })).data.atom).toEqual({ id: hits[0].id, sequence: hits[0].sequence });
  });

  it('names a host that is down and leaves its hits out', async () => {
    await remote.close();
    await until(async () => (await hubSearch('passed')).unreachableHosts.includes('gpu'), 'the hub to see gpu down', 20_000);
    const { hits, complete } = await hubSearch('passed');
    expect(complete).toBe(false);
    for (const hit of hits) expect(hit.id).toMatch(/^laptop:/);
  }, 30_000);
});
