import { cpSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ARCHIVE_CAP_BYTES } from '../../server/kernel-defaults';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { until } from '../helpers/wait';

// History that outlives Claude Code's cleanup: every transcript read is copied into the state
// dir's archive; a fixture deleted under a running kernel leaves its session in place, marked
// archived, its chat and search still answering, and a restart (with or without the index cache)
// keeps it.

const KERNEL = graphql(
  `query { kernel { archive { files rawBytes storedBytes capBytes archiveOnly dropped { files archiveOnly } } searchIndexing { done } } }`,
);
const SESSION = graphql(`
  query ($id: ID!) {
    session(id: $id) { id archived files { archived } }
    transcript(sessionId: $id, limit: 200) { entries { id content { __typename ... on ToolResultBlock { content } ... on TextBlock { text } } } }
  }
`);
const SEARCH = graphql(`query ($q: String!) { search(query: $q) { hits { id session { id archived } snippet { text hit } } } }`);

const SPOTTER = '-home-USER-projects-spotter-worktrees';
const ID = 'test:tool_heavy';
/** the kernel's own defaults for the archive and search; a sleeping session (awake limit 1) must wake from the copy too */
const ARCHIVING = () => ({ stateDir: state(), archive: { capBytes: DEFAULT_ARCHIVE_CAP_BYTES }, search: true, awakeLimit: 1 });
let root: string;
let kernel: TestKernel;
const projects = () => join(root, 'projects');
const state = () => join(root, 'state');

/** The transcripts with bytes in them (an empty one has nothing to copy). */
const transcripts = () =>
  (readdirSync(projects(), { recursive: true }) as string[]).filter((f) => f.endsWith('.jsonl') && statSync(join(projects(), f)).size > 0);

/** Every transcript is held whole by the archive. */
async function archived(k: TestKernel): Promise<void> {
  const bytes = transcripts().reduce((sum, f) => sum + statSync(join(projects(), f)).size, 0);
  await until(async () => (await k.gql(KERNEL)).data.kernel.archive?.rawBytes === bytes, 'every transcript copied', 30_000);
}

async function chatHolds(k: TestKernel, word: string): Promise<boolean> {
  const { data } = await k.gql(SESSION, { id: ID });
  return JSON.stringify(data.transcript.entries).toLowerCase().includes(word);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-archive-'));
  cpSync(FIXTURES, projects(), { recursive: true });
  kernel = await startTestKernel(projects(), ARCHIVING());
  await archived(kernel);
  await until(async () => (await kernel.gql(KERNEL)).data.kernel.searchIndexing?.done === true, 'the search index built', 30_000);
}, 60_000);
afterAll(async () => {
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a transcript deleted under a running kernel', () => {
  it('copies every transcript, compressed, and says so', async () => {
    const { archive } = (await kernel.gql(KERNEL)).data.kernel;
    expect(archive).toMatchObject({ files: transcripts().length, archiveOnly: 0, dropped: { files: 0, archiveOnly: 0 }, capBytes: DEFAULT_ARCHIVE_CAP_BYTES });
    expect(archive!.storedBytes).toBeLessThan(archive!.rawBytes / 3);
  });

  it('keeps the session, marked archived, with its chat and its search hits', async () => {
    expect(await chatHolds(kernel, 'archlinux')).toBe(true);
    rmSync(join(projects(), SPOTTER, 'tool_heavy.jsonl'));
    await until(async () => (await kernel.gql(SESSION, { id: ID })).data.session?.archived === true, 'the session marked archived', 10_000);
    const { data } = await kernel.gql(SESSION, { id: ID });
    expect(data.session).toEqual({ id: ID, archived: true, files: [{ archived: true }] });
    expect(data.transcript.entries.length).toBeGreaterThan(10);
    expect(await chatHolds(kernel, 'archlinux')).toBe(true);
    const { hits } = (await kernel.gql(SEARCH, { q: 'archlinux' })).data.search;
    expect(hits).toHaveLength(1);
    expect(hits[0].session).toEqual({ id: ID, archived: true });
    expect(hits[0].snippet.some((p) => p.hit && p.text.toLowerCase() === 'archlinux')).toBe(true);
    expect((await kernel.gql(KERNEL)).data.kernel.archive?.archiveOnly).toBe(1);
  });

  it('keeps it across a restart, from the index cache or, without one, from the archive alone', async () => {
    await kernel.close();
    kernel = await startTestKernel(projects(), ARCHIVING());
    expect((await kernel.gql(SESSION, { id: ID })).data.session?.archived).toBe(true);
    expect(await chatHolds(kernel, 'archlinux')).toBe(true);

    // the index cache and the search index both gone: the session and its words come back from the copy alone
    await kernel.close();
    for (const file of ['index-cache.json', 'search.db', 'search.db-wal', 'search.db-shm']) rmSync(join(state(), file), { force: true });
    kernel = await startTestKernel(projects(), ARCHIVING());
    expect((await kernel.gql(SESSION, { id: ID })).data.session).toEqual({ id: ID, archived: true, files: [{ archived: true }] });
    expect(await chatHolds(kernel, 'archlinux')).toBe(true);
    await until(async () => (await kernel.gql(KERNEL)).data.kernel.searchIndexing?.done === true, 'the search index built again', 30_000);
    expect((await kernel.gql(SEARCH, { q: 'archlinux' })).data.search.hits.map((h) => h.session)).toEqual([{ id: ID, archived: true }]);
  }, 60_000);

  it('loses a deleted transcript when the archive is off, as Claude Code did', async () => {
    await kernel.close();
    kernel = await startTestKernel(projects(), { stateDir: join(root, 'state-without'), archive: false });
    expect((await kernel.gql(KERNEL)).data.kernel.archive).toBeNull();
    const only = graphql(`query ($id: ID!) { session(id: $id) { id } }`);
    expect((await kernel.gql(only, { id: ID })).data.session).toBeNull();
  });
});
