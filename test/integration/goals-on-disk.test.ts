import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { until } from '../helpers/wait';

// Sleeping sessions' goals are kept in the file beside the index cache, read only when asked:
// after a restart they are the goals every session gives awake; a blob file that is missing makes
// the kernel index from the transcripts, with one line in the log; and a session whose goals
// there are damaged is read again to judge them, with one line in the log.

const FEED = graphql(`{
  feed {
    working { id title status rolledUpStatus outcome children { kind title status } }
    blocked { id title status rolledUpStatus outcome block { kind text } children { kind title status } }
    completed { id title status rolledUpStatus outcome children { kind title status } }
  }
  kernel { indexing { filesFromCache filesDone } }
}`);
const GOALS = graphql(`query($id: ID!) { session(id: $id) { goals { id title status outcome children { kind title status } } } }`);
/** a session of the fixtures with goals that have parts */
const KEY = '1af7fc5e-8455-4414-9ccd-011d40f70b2a';

let root: string;
const kernels: TestKernel[] = [];
const start = async (stateDir: string, awakeLimit: number) => {
  const kernel = await startTestKernel(FIXTURES, { stateDir, awakeLimit });
  kernels.push(kernel);
  return kernel;
};
const feedOf = async (kernel: TestKernel) => {
  const { kernel: info, feed } = (await kernel.gql(FEED)).data;
  return { feed, info };
};
const goalsOf = async (kernel: TestKernel) => (await kernel.gql(GOALS, { id: `test:${KEY}` })).data.session!.goals;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-goals-disk-'));
});
afterAll(async () => {
  for (const k of kernels) await k.close();
  rmSync(root, { recursive: true, force: true });
});

describe("sleeping sessions' goals on disk", () => {
  it('gives the goals every session gives awake after a restart, and indexes again when the blob file is missing', async () => {
    const awake = await start(join(root, 'awake'), 1000);
    const expected = (await feedOf(awake)).feed;
    expect(expected.completed.length).toBeGreaterThan(20);
    const expectedGoals = await goalsOf(awake);
    expect(expectedGoals.some((g) => g.children.length > 0)).toBe(true);

    const state = join(root, 'asleep');
    // what a kernel before the blob file left: usage rows no cache refers to any more
    mkdirSync(state, { mode: 0o700 });
    writeFileSync(join(state, 'index-cache.usage'), 'usage rows of an older cache');
    await (await start(state, 1)).close();
    expect(existsSync(join(state, 'index-cache.usage'))).toBe(false);
    const blobFile = join(state, 'index-cache.blobs');

    const restarted = await start(state, 1);
    const again = await feedOf(restarted);
    expect(again.info.indexing.filesFromCache).toBe(again.info.indexing.filesDone);
    expect(again.feed).toEqual(expected);
    expect(await goalsOf(restarted)).toEqual(expectedGoals);
    await restarted.close();

    rmSync(blobFile);
    const rebuilt = await start(state, 1);
    const third = await feedOf(rebuilt);
    expect(third.info.indexing.filesFromCache).toBe(0);
    expect(third.feed).toEqual(expected);
    expect(rebuilt.logs.filter((l) => l.includes('is missing or not the index cache'))).toHaveLength(1);
    expect(existsSync(blobFile)).toBe(true);
  }, 60_000);

  it('judges again the goals of a session whose stored goals are damaged, and only its', async () => {
    const awake = await start(join(root, 'awake-2'), 1000);
    const expected = (await feedOf(awake)).feed;
    const expectedGoals = await goalsOf(awake);

    const state = join(root, 'damaged');
    await (await start(state, 1)).close();
    const cache = JSON.parse(readFileSync(join(state, 'index-cache.json'), 'utf8')) as {
      sessions: { key: string; facts: { goals: { at: number; bytes: number } } }[];
    };
    const { at, bytes } = cache.sessions.find((s) => s.key === KEY)!.facts.goals;
    const fd = openSync(join(state, 'index-cache.blobs'), 'r+');
    writeSync(fd, Buffer.alloc(bytes, '{'), 0, bytes, at);
    closeSync(fd);

    const restarted = await start(state, 1);
    const { info, feed } = await feedOf(restarted);
    expect(info.indexing.filesFromCache).toBe(info.indexing.filesDone);
    // until it is read again, the session has no goals; every other session has its own
    const others = (goals: typeof expected.completed) => goals.filter((g) => !g.id.includes(KEY));
    expect(feed.completed.filter((g) => g.id.includes(KEY))).toEqual([]);
    expect(others(feed.completed)).toEqual(others(expected.completed));
    await until(async () => (await goalsOf(restarted)).length > 0, 'the damaged session to be judged again');
    expect(await goalsOf(restarted)).toEqual(expectedGoals);
    expect((await feedOf(restarted)).feed).toEqual(expected);
    expect(restarted.logs.filter((l) => l.includes('could not be read'))).toEqual([
      `the stored goals of session ${KEY} could not be read; reading its transcript again to judge them`,
    ]);
  }, 60_000);
});
