import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';

// Sleeping sessions keep their usage rows in the file beside the index cache, read only when a
// usage question asks: the figures are the same as with every session awake, after a restart too,
// and a blob file that is not the cache's makes the kernel index from the transcripts again.

const USAGE = graphql(`{
  days: usage(groupBy: DAY) { key inputTokens outputTokens cacheCreationTokens cacheReadTokens cost }
  sessions: usage(groupBy: SESSION) { key outputTokens }
  session(id: "test:4d5611e5-241a-462a-8d15-5122611a9569") { all: usage(includeSubagents: true) { outputTokens } own: usage { outputTokens } }
  kernel { indexing { filesFromCache filesDone } }
}`);

let root: string;
const kernels: TestKernel[] = [];
const start = async (stateDir: string, awakeLimit: number) => {
  const kernel = await startTestKernel(FIXTURES, { stateDir, awakeLimit });
  kernels.push(kernel);
  return kernel;
};
const figures = async (kernel: TestKernel) => {
  const { kernel: info, ...usage } = (await kernel.gql(USAGE)).data;
  return { usage, info };
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-usage-disk-'));
});
afterAll(async () => {
  for (const k of kernels) await k.close();
  rmSync(root, { recursive: true, force: true });
});

describe("sleeping sessions' usage on disk", () => {
  it('gives the figures every session gives awake, before and after a restart, and when the blob file is not the cache’s', async () => {
    const awake = await start(join(root, 'awake'), 1000);
    const expected = (await figures(awake)).usage;
    expect(expected.days.length).toBeGreaterThan(3);

    const state = join(root, 'asleep');
    const asleep = await start(state, 1);
    expect((await figures(asleep)).usage).toEqual(expected);
    await asleep.close();
    const blobFile = join(state, 'index-cache.blobs');
    expect(statSync(blobFile).size).toBeGreaterThan(1000);

    const restarted = await start(state, 1);
    const again = await figures(restarted);
    expect(again.info.indexing.filesFromCache).toBe(again.info.indexing.filesDone);
    expect(again.usage).toEqual(expected);
    await restarted.close();

    writeFileSync(blobFile, 'not the blobs the cache names');
    const rebuilt = await start(state, 1);
    const third = await figures(rebuilt);
    expect(third.info.indexing.filesFromCache).toBe(0);
    expect(third.usage).toEqual(expected);
    expect(rebuilt.logs.filter((l) => l.includes('is missing or not the index cache'))).toHaveLength(1);
    expect(existsSync(blobFile)).toBe(true);
  }, 60_000);

  it('gives the same figures after a kernel stopped without closing: the blobs its cache names are on disk', async () => {
    const expected = (await figures(await start(join(root, 'awake-2'), 1000))).usage;
    const state = join(root, 'crashed');
    await start(state, 1);
    // the files as a kernel killed now would leave them: it saved its cache as the first index ended
    const copy = join(root, 'after-crash');
    mkdirSync(copy, { mode: 0o700 });
    for (const name of ['index-cache.json', 'index-cache.blobs']) copyFileSync(join(state, name), join(copy, name));
    const restarted = await start(copy, 1);
    const again = await figures(restarted);
    expect(again.info.indexing.filesFromCache).toBe(again.info.indexing.filesDone);
    expect(again.usage).toEqual(expected);
  }, 60_000);
});
