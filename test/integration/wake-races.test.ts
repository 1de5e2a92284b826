import { copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TranscriptArchive } from '../../spoke/archive/transcript-archive';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import { blobFileOf } from '../../spoke/transcripts/index-cache';
import { FileTail } from '../../spoke/transcripts/tail';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { assistant, line, prompt, say } from '../helpers/records';
import { until } from '../helpers/wait';

// What happens around a sleeping session's wake, when its files are read again: a cache saved
// meanwhile must not lose a session after a restart, and a file deleted meanwhile must not wake
// the session on part of its lines when Loom has a copy of it.

let root: string;
let state: string;
const project = '-home-dev-demo';
const fileOf = (key: string) => join(root, project, `${key}.jsonl`);
/** a subagent's line as Claude Code 1.0 wrote it, inline; a session resumed from s1 as s5 carries a copy */
const sidechain = prompt('c1', null, 'look', { isSidechain: true });

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-wake-'));
  state = mkdtempSync(join(tmpdir(), 'loom-wake-state-'));
  mkdirSync(join(root, project));
  const write = (key: string, records: unknown[], ageS: number) => {
    writeFileSync(fileOf(key), records.map(line).join(''));
    const at = Date.now() / 1000 - ageS;
    utimesSync(fileOf(key), at, at);
  };
  // s1 and s5 share the subagent's line, so one wake reads both files; read first (newest), they
  // are asleep once the others are read
  write('s1', [prompt('p1', null, 'go'), assistant('a1', 'p1', [say('done')], 'end_turn'), sidechain], 0);
  write('s5', [sidechain, prompt('r1', null, 'resume'), assistant('r2', 'r1', [say('again')], 'end_turn')], 10);
  for (const [i, key] of ['s2', 's3', 's4'].entries())
    write(key, [prompt(`${key}-p`, null, key), assistant(`${key}-a`, `${key}-p`, [say('ok')], 'end_turn')], 60 * (i + 1));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

async function indexed(cacheFile: string, archive?: TranscriptArchive): Promise<{ tracker: TranscriptTracker; catalog: SessionCatalog }> {
  const catalog = new SessionCatalog('h', 1);
  const tracker = new TranscriptTracker(root, catalog, { changed: () => {}, log: () => {}, cacheFile, archive });
  await tracker.start();
  return { tracker, catalog };
}

describe('waking a sleeping session', () => {
  it('saves an index cache that still has every session of its files when the save comes during the wake', async () => {
    const cacheFile = join(state, 'index-cache.json');
    const { tracker, catalog } = await indexed(cacheFile);
    for (const key of ['s1', 's5']) expect(catalog.get(key)!.sleeping).not.toBeNull();
    // the cache as a save in the middle of the wake writes it (the kernel saves on a timer)
    const saved = join(state, 'mid-wake');
    mkdirSync(saved);
    const endWaking = catalog.endWaking.bind(catalog);
    catalog.endWaking = (group, complete) => {
      (tracker as unknown as { saveCache(): void }).saveCache();
      copyFileSync(cacheFile, join(saved, 'index-cache.json'));
      copyFileSync(blobFileOf(cacheFile), blobFileOf(join(saved, 'index-cache.json')));
      endWaking(group, complete);
    };
    await tracker.wake('s1');
    expect(catalog.get('s5')!.sleeping).toBeNull();
    await tracker.stop();

    const restarted = await indexed(join(saved, 'index-cache.json'));
    await restarted.tracker.stop();
    expect(restarted.catalog.get('s1')?.atomCount()).toBe(2);
    expect(restarted.catalog.get('s5')?.atomCount()).toBe(2);
    expect(restarted.catalog.get('sidechain-c1')?.atomCount()).toBe(1);
  });

  it("reads the rest of a file deleted as the wake reads it from Loom's copy, and wakes whole", async () => {
    const archive = TranscriptArchive.open({ dir: join(state, 'archive'), capBytes: null, log: () => {} });
    const { tracker, catalog } = await indexed(join(state, 'index-cache.json'), archive);
    const session = catalog.get('s1')!;
    expect(session.sleeping).toMatchObject({ atomCount: 2 });
    const name = relative(root, fileOf('s1'));
    await until(() => archive.archivedTo(name) === statSync(fileOf('s1')).size, 'the copy of s1');
    // deleted after the wake chose to read it from disk, before it opened it
    const read = FileTail.prototype.read;
    const spy = vi.spyOn(FileTail.prototype, 'read').mockImplementation(function (this: FileTail, ...args) {
      if (this.path === fileOf('s1')) rmSync(this.path, { force: true });
      return read.apply(this, args);
    });
    await tracker.wake('s1');
    spy.mockRestore();
    expect(session.sleeping).toBeNull();
    expect(session.atomCount()).toBe(2);
    await tracker.stop();
  });
});
