import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { inotifyWatches } from '../helpers/inotify';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { type TranscriptTree, transcriptLine, writeTranscript, writeTranscriptTree } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// A history of hundreds of files, written over a month, across many project dirs: the kernel
// follows it with watches on its directories, not one per file, and still sees every append,
// every new file and every new project within a second.

const PROJECTS = 60;
const linux = process.platform === 'linux';
let root: string;
let tree: TranscriptTree;
let kernel: TestKernel;
let watchesBefore: number | null;
let watchesHeld: number | null;
/** an old session whose folder holds no subagents/ yet (only what Claude Code keeps beside them) */
let quietMain: string;

const atomCount = async (sessionKey: string): Promise<number> => {
  const { data } = await kernel.gql(graphql(`query Count($id: ID!) { session(id: $id) { atomCount } }`), { id: `test:${sessionKey}` });
  return data.session?.atomCount ?? 0;
};

const monthAgo = (path: string) => {
  const at = Date.now() / 1000 - 30 * 86_400;
  utimesSync(path, at, at);
};

beforeAll(async () => {
  root = join(mkdtempSync(join(tmpdir(), 'loom-watches-')), 'projects');
  tree = writeTranscriptTree(root, { files: 400, projects: PROJECTS, subagentEvery: 8, spanDays: 30 });
  quietMain = writeTranscript(join(tree.dirs[1], 'quiet.jsonl'), 'quiet', 'an old session');
  mkdirSync(join(tree.dirs[1], 'quiet', 'tool-results'), { recursive: true });
  monthAgo(quietMain);
  watchesBefore = inotifyWatches();
  kernel = await startTestKernel(root);
  watchesHeld = linux ? inotifyWatches()! - watchesBefore! : null;
});
afterAll(async () => {
  await kernel.close();
  rmSync(dirname(root), { recursive: true, force: true });
});

describe('a projects tree of hundreds of files across many project dirs', () => {
  it.skipIf(!linux)('holds about one inotify watch per directory that holds transcripts, not one per file', () => {
    const subagentDirs = tree.dirs.filter((d) => basename(d) === 'subagents').length;
    // the root, every project, every subagents/; a few recent sessions' folders; the kernel's state dir
    expect(watchesHeld).toBeGreaterThanOrEqual(1 + PROJECTS + subagentDirs);
    expect(watchesHeld).toBeLessThanOrEqual(tree.dirs.length + 3);
    expect(watchesHeld).toBeLessThan(tree.files.length / 2);
  });

  it('sees an append to the oldest session, and to the oldest subagent, within a second', async () => {
    const oldestMain = tree.files.findLast((f) => basename(dirname(f)) !== 'subagents')!;
    const oldestAgent = tree.files.findLast((f) => basename(dirname(f)) === 'subagents')!;
    for (const file of [oldestMain, oldestAgent]) {
      const key = basename(file, '.jsonl');
      const before = await atomCount(key);
      expect(before).toBeGreaterThan(0);
      appendFileSync(file, transcriptLine(key, `${key}-later`, null, 'user', 'one more thing'));
      await until(async () => (await atomCount(key)) > before, `the append to ${key} to be read`, 1000);
    }
  });

  it('finds a new session in an existing project within a second', async () => {
    writeTranscript(join(tree.dirs[2], 'fresh.jsonl'), 'fresh', 'a new session');
    await until(async () => (await atomCount('fresh')) > 0, 'the new session to be read', 1000);
  });

  it('finds a new project within a second, with the sessions and subagents written into it before its watch could be set', async () => {
    const project = join(root, '-home-dev-brand-new');
    mkdirSync(join(project, 'born', 'subagents'), { recursive: true });
    writeTranscript(join(project, 'born.jsonl'), 'born', 'in a new project');
    writeTranscript(join(project, 'born', 'subagents', 'agent-born1.jsonl'), 'born', 'its subagent');
    await until(async () => (await atomCount('born')) > 0 && (await atomCount('agent-born1')) > 0, 'the new project to be read', 1000);
    const agent = join(project, 'born', 'subagents', 'agent-born1.jsonl');
    appendFileSync(agent, transcriptLine('born', 'born-later', null, 'user', 'and then'));
    await until(async () => (await atomCount('agent-born1')) > 2, 'the append to the new subagent to be read', 1000);
  });

  it("finds a subagent that appears in an old session's folder once that session is written again", async () => {
    mkdirSync(join(tree.dirs[1], 'quiet', 'subagents'));
    writeTranscript(join(tree.dirs[1], 'quiet', 'subagents', 'agent-quiet1.jsonl'), 'quiet', 'woken up');
    appendFileSync(quietMain, transcriptLine('quiet', 'quiet-resumed', null, 'user', 'resumed'));
    await until(async () => (await atomCount('agent-quiet1')) > 0, "the old session's new subagent to be read", 1000);
  });

  it.skipIf(!linux)('closes every watch when it stops', async () => {
    await kernel.close();
    expect(inotifyWatches()).toBe(watchesBefore);
  });
});
