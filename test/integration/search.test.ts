import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, say } from '../helpers/records';
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
  kernel = await startTestKernel(PROJECTS(), { stateDir: join(root, 'state') });
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

describe('the index on disk', () => {
  it('is built again when deleted, and when unreadable, saying so in one log line', async () => {
    await kernel.close();
    rmSync(join(root, 'state', 'search.db'));
    kernel = await startTestKernel(PROJECTS(), { stateDir: join(root, 'state') });
    await indexed(kernel);
    expect((await search('archlinux')).hits).toHaveLength(1);
    expect(kernel.logs.some((l) => l.startsWith('building the search index'))).toBe(true);

    await kernel.close();
    for (const suffix of ['-wal', '-shm']) rmSync(join(root, 'state', `search.db${suffix}`), { force: true });
    writeFileSync(join(root, 'state', 'search.db'), 'this is not a database, only words');
    kernel = await startTestKernel(PROJECTS(), { stateDir: join(root, 'state') });
    await indexed(kernel);
    expect((await search('archlinux')).hits).toHaveLength(1);
    expect(kernel.logs.filter((l) => l.includes('cannot be read'))).toHaveLength(1);
  }, 60_000);
});
