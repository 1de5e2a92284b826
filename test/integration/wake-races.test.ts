import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
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
// meanwhile must not lose a session after a restart, a file deleted meanwhile must not wake
// the session on part of its lines when Loom has a copy of it, and a wake that fails must leave
// no session of its group with part of its lines. And around a session's sleep: a session whose
// file is being read does not fall asleep under the read.

let root: string;
let state: string;
const project = '-home-dev-demo';
const fileOf = (key: string) => join(root, project, `${key}.jsonl`);
/** a subagent's line as Claude Code 1.0 wrote it, inline; a session resumed from s1 as s5 carries a copy */
const sidechain = prompt('c1', null, 'look', { isSidechain: true });
/** a gate spied reads wait at, until opened */
interface Gate {
  entered: boolean;
  open: () => void;
}
const gates: { which: (tail: FileTail) => boolean; gate: Gate; opened: Promise<void> }[] = [];

/** Makes each read `which` picks wait at a new gate before it starts (one spy for every gate, undone after each test). */
function gateReads(which: (tail: FileTail) => boolean): Gate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => (open = resolve));
  const gate: Gate = { entered: false, open };
  if (gates.length === 0) {
    const read = FileTail.prototype.read;
    vi.spyOn(FileTail.prototype, 'read').mockImplementation(async function (this: FileTail, ...args) {
      for (const g of gates)
        if (g.which(this)) {
          g.gate.entered = true;
          await g.opened;
        }
      return read.apply(this, args);
    });
  }
  gates.push({ which, gate, opened });
  return gate;
}

/** The tracker's own reader of a file (a wake reads with a reader of its own). */
const trackedTail = (tracker: TranscriptTracker, path: string): FileTail =>
  (tracker as unknown as { files: Map<string, { tail: FileTail }> }).files.get(path)!.tail;

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
  vi.restoreAllMocks();
  gates.length = 0;
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

/** A tracker indexed from `root` with one session awake at most; `read` is told each file it read, as it trims the catalog. */
async function indexed(
  cacheFile: string,
  { archive, read }: { archive?: TranscriptArchive; read?: (path: string) => void } = {},
): Promise<{ tracker: TranscriptTracker; catalog: SessionCatalog }> {
  const catalog = new SessionCatalog('h', 1);
  const tracker = new TranscriptTracker(root, catalog, { changed: () => {}, log: () => {}, cacheFile, archive, read });
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
    const { tracker, catalog } = await indexed(join(state, 'index-cache.json'), { archive });
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

  it('leaves each session of its group as it was, awake or asleep, when reading a file fails part way', async () => {
    const logged: string[] = [];
    const catalog = new SessionCatalog('h', 1);
    const tracker = new TranscriptTracker(root, catalog, { changed: () => {}, log: (m) => logged.push(m), cacheFile: join(state, 'index-cache.json') });
    await tracker.start();
    // s1 awake with its whole graph; s5, which shares a line with it, asleep
    await tracker.wake('s1');
    catalog.use(catalog.get('s1')!);
    catalog.trim();
    const s1 = catalog.get('s1')!;
    expect(s1.sleeping).toBeNull();
    expect(catalog.get('s5')!.sleeping).not.toBeNull();
    const read = FileTail.prototype.read;
    const spy = vi.spyOn(FileTail.prototype, 'read').mockImplementation(function (this: FileTail, ...args) {
      if (this.path === fileOf('s5')) return Promise.reject(new Error('EIO: i/o error, read'));
      return read.apply(this, args);
    });
    await tracker.wake('s5');
    spy.mockRestore();
    expect(logged.some((m) => m.includes('EIO'))).toBe(true);
    expect(s1.sleeping).toBeNull();
    expect(s1.activePath().map((a) => a.uuid)).toEqual(['p1', 'a1']);
    expect(catalog.summary(s1)).toMatchObject({ atomCount: 2, turnCount: 1, name: 'go' });
    const s5 = catalog.get('s5')!;
    expect(s5.sleeping).toMatchObject({ atomCount: 2, turnCount: 1 });
    // the next read wakes it whole
    await tracker.wake('s5');
    expect(s5.sleeping).toBeNull();
    expect(s5.activePath().map((a) => a.uuid)).toEqual(['r1', 'r2']);
    expect(s1.activePath().map((a) => a.uuid)).toEqual(['p1', 'a1']);
    await tracker.stop();
  });

  it('keeps a session awake while one of its files is being read, so what the read adds is in what it shows asleep', async () => {
    const { tracker, catalog } = await indexed(join(state, 'index-cache.json'));
    const s2 = catalog.get('s2')!;
    await tracker.wake('s2');
    expect(s2.sleeping).toBeNull();
    // a new exchange in s2, its read held before it starts
    const gate = gateReads((tail) => tail.path === fileOf('s2'));
    appendFileSync(fileOf('s2'), [prompt('s2-q', 's2-a', 'more'), assistant('s2-b', 's2-q', [say('sure')], 'end_turn')].map(line).join(''));
    const reading = tracker.catchUp('s2');
    await until(() => gate.entered, 'the read of s2, started');
    // another session read meanwhile: the catalog (one awake) puts the least recently used to sleep
    appendFileSync(fileOf('s3'), line(prompt('s3-q', 's3-a', 'and')));
    await tracker.catchUp('s3');
    expect(s2.sleeping).toBeNull();
    gate.open();
    await reading;
    expect(catalog.summary(s2)).toMatchObject({ atomCount: 4, turnCount: 2 });
    // once no read holds it, it falls asleep with all four lines
    await tracker.catchUp('s4');
    expect(s2.sleeping).toMatchObject({ atomCount: 4, turnCount: 2 });
    await tracker.stop();
  });

  it('keeps every session of the group awake while it wakes, so one read elsewhere meanwhile puts none of them to sleep', async () => {
    let readsOfS3 = 0;
    const read = (path: string) => path === fileOf('s3') && readsOfS3++;
    const { tracker, catalog } = await indexed(join(state, 'index-cache.json'), { read });
    const s1 = catalog.get('s1')!;
    await tracker.wake('s1');
    catalog.use(s1);
    catalog.trim();
    expect(s1.sleeping).toBeNull();
    expect(catalog.get('s5')!.sleeping).not.toBeNull();
    readsOfS3 = 0;
    // a read of s3 held, then the wake of s5 (whose group holds the awake s1) held as it reads s1 again
    appendFileSync(fileOf('s3'), line(prompt('s3-q', 's3-a', 'and')));
    const s3Tail = trackedTail(tracker, fileOf('s3'));
    const s1Tail = trackedTail(tracker, fileOf('s1'));
    const held3 = gateReads((tail) => tail === s3Tail);
    const reading3 = tracker.catchUp('s3');
    await until(() => held3.entered, 'the read of s3');
    const heldWake = gateReads((tail) => tail.path === fileOf('s1') && tail !== s1Tail);
    const waking = tracker.wake('s5');
    await until(() => heldWake.entered, 'the wake reading s1');
    // the read of s3 ends during the wake, and trims the catalog (one awake); a signal of the
    // append may send it round again, behind the wake
    held3.open();
    await until(() => readsOfS3 > 0, 'the read of s3, done');
    expect(s1.sleeping).toBeNull();
    heldWake.open();
    await waking;
    await reading3;
    expect(catalog.summary(s1)).toMatchObject({ atomCount: 2, turnCount: 1 });
    await tracker.stop();
    const restarted = await indexed(join(state, 'index-cache.json'));
    await restarted.tracker.stop();
    expect(restarted.catalog.get('s1')?.atomCount()).toBe(2);
  });

  it('routes an inline subagent line read during a wake of its group to the subagent it continues', async () => {
    const { tracker, catalog } = await indexed(join(state, 'index-cache.json'));
    const limit = catalog as unknown as { awakeLimit: number };
    limit.awakeLimit = 64;
    await tracker.wake('s1');
    const subagent = catalog.get('sidechain-c1')!;
    // the subagent goes on in s1 (Claude Code 1.0 wrote it inline), and s5 gains a line
    const s1Tail = trackedTail(tracker, fileOf('s1'));
    const held1 = gateReads((tail) => tail === s1Tail);
    appendFileSync(fileOf('s1'), line({ ...assistant('c2', 'c1', [say('looked')], 'end_turn', 'c2'), isSidechain: true }));
    appendFileSync(fileOf('s5'), line(prompt('r3', 'r2', 'more')));
    const reading1 = tracker.catchUp('s1');
    await until(() => held1.entered, 'the read of s1');
    // s5 falls asleep; s1 and the subagent stay awake
    limit.awakeLimit = 1;
    const unpin = [catalog.pin('s1'), catalog.pin('sidechain-c1')];
    catalog.trim();
    for (const u of unpin) u();
    expect(catalog.get('s5')!.sleeping).not.toBeNull();
    // the wake of s5 reads s1 again while the held read of s1 goes on
    const heldWake = gateReads((tail) => tail.path === fileOf('s1') && tail !== s1Tail);
    const waking = tracker.wake('s5');
    await until(() => heldWake.entered, 'the wake reading s1');
    held1.open();
    await until(() => s1Tail.offset === statSync(fileOf('s1')).size, 'the read of s1, done');
    heldWake.open();
    await waking;
    await reading1;
    expect(catalog.get('sidechain-c2')).toBeUndefined();
    expect(catalog.summary(subagent).atomCount).toBe(2);
    await tracker.stop();
  });
});
