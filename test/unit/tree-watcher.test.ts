import { appendFileSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dirWatchOf, placeOf } from '../../spoke/transcripts/paths';
import { TreeWatcher } from '../../spoke/transcripts/tree-watcher';
import { sleep, until } from '../helpers/wait';

// The TreeWatcher alone, on real directories: what it reports, and which directories it holds
// a watch on.

let root: string;
let outside: string;
let watcher: TreeWatcher;
const changed: string[] = [];
const gone: { path: string; directory: boolean }[] = [];

function startWatcher(activeMs = 60_000, activeAtStart = true, refused: string[] = []): string[] {
  watcher = new TreeWatcher(root, {
    watchOf: (dir) => dirWatchOf(root, dir),
    activeAtStart: () => activeAtStart,
    wantFile: (path) => placeOf(root, path) !== null,
    mayFollowLink: (path) => !refused.includes(path),
    changed: (path) => changed.push(path),
    gone: (path, directory) => gone.push({ path, directory }),
    log: () => {},
    activeMs,
  });
  return watcher.start();
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-tree-'));
  outside = mkdtempSync(join(tmpdir(), 'loom-tree-outside-'));
  mkdirSync(join(root, 'p', 's', 'tool-results'), { recursive: true });
  writeFileSync(join(root, 'p', 's.jsonl'), '{}\n');
  changed.length = 0;
  gone.length = 0;
});
afterEach(() => {
  watcher.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('TreeWatcher', () => {
  it('watches the root, the projects and an active session folder, and no file nor tool-results/', async () => {
    startWatcher();
    expect(watcher.watches).toBe(3);
    expect(changed).toEqual([]);
  });

  it('reports an append, a file replaced by a rename, a deletion, and skips what is not a transcript', async () => {
    startWatcher();
    const file = join(root, 'p', 's.jsonl');
    appendFileSync(file, '{}\n');
    await until(() => changed.includes(file), 'the append to be reported');
    writeFileSync(join(root, 'p', 'notes.txt'), 'x');
    writeFileSync(join(root, 'p', 'next.tmp'), '{}\n');
    renameSync(join(root, 'p', 'next.tmp'), file);
    changed.length = 0;
    await until(() => changed.includes(file), 'the replaced file to be reported');
    unlinkSync(file);
    await until(() => gone.some((g) => g.path === file && !g.directory), 'the deletion to be reported');
    expect(changed.filter((p) => !p.endsWith('.jsonl'))).toEqual([]);
  });

  it('reports a project moved out of the tree as a directory gone, and stops watching it', async () => {
    mkdirSync(join(root, 'p', 's', 'subagents'));
    startWatcher();
    expect(watcher.watches).toBe(4);
    renameSync(join(root, 'p'), join(outside, 'p'));
    await until(() => gone.some((g) => g.path === join(root, 'p') && g.directory), 'the project to be reported gone');
    expect(watcher.watches).toBe(1);
  });

  it('stops watching a quiet session folder after a while, and when it is activated watches it again and reports what appeared meanwhile', async () => {
    startWatcher(100);
    await until(() => watcher.watches === 2, 'the quiet session folder to be unwatched', 2000);
    const agent = join(root, 'p', 's', 'subagents', 'agent-a.jsonl');
    mkdirSync(join(root, 'p', 's', 'subagents'));
    writeFileSync(agent, '{}\n');
    await sleep(100);
    expect(changed).toEqual([]);
    watcher.activate(join(root, 'p', 's'));
    await until(() => changed.includes(agent), 'the subagent to be reported');
    expect(watcher.watches).toBe(4);
  });

  it('leaves a session folder unwatched at start when its session is not active, and still reports its subagents', async () => {
    mkdirSync(join(root, 'p', 's', 'subagents'));
    const agent = join(root, 'p', 's', 'subagents', 'agent-a.jsonl');
    writeFileSync(agent, '{}\n');
    startWatcher(60_000, false);
    expect(watcher.watches).toBe(3);
    appendFileSync(agent, '{}\n');
    await until(() => changed.includes(agent), 'the append to the subagent to be reported');
  });

  it('returns the transcripts it follows at start: in projects and subagents/, links it may follow, nothing else', async () => {
    mkdirSync(join(root, 'p', 's', 'subagents'));
    const agent = join(root, 'p', 's', 'subagents', 'agent-a.jsonl');
    writeFileSync(agent, '{}\n');
    writeFileSync(join(root, 'p', 's', 'tool-results', 'deep.jsonl'), '{}\n');
    writeFileSync(join(root, 'p', 'notes.txt'), 'x');
    writeFileSync(join(outside, 'o.jsonl'), '{}\n');
    const allowed = join(root, 'p', 'allowed.jsonl');
    const refused = join(root, 'p', 'refused.jsonl');
    symlinkSync(join(root, 'p', 's.jsonl'), allowed);
    symlinkSync(join(outside, 'o.jsonl'), refused);
    const listed = startWatcher(60_000, true, [refused]);
    expect(listed.sort()).toEqual([allowed, join(root, 'p', 's.jsonl'), agent].sort());
    // the root, p, the session folder, its subagents/, and the link it follows
    expect(watcher.watches).toBe(5);
  });

  it("gives a link to a transcript a watch of its own, so its target's writes are reported at the link", async () => {
    // kept where no watched directory sees it
    mkdirSync(join(root, 'kept', 'here'), { recursive: true });
    const target = join(root, 'kept', 'here', 'real.jsonl');
    writeFileSync(target, '{}\n');
    const link = join(root, 'p', 'linked.jsonl');
    symlinkSync(target, link);
    startWatcher(60_000, false);
    // the root, p, kept, and the link: kept/here is a session folder, and none is active
    expect(watcher.watches).toBe(4);
    appendFileSync(target, '{}\n');
    await until(() => changed.includes(link), 'the write to the target to be reported at the link');
  });
});
