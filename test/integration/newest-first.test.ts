import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import { FileTail } from '../../spoke/transcripts/tail';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { FIXTURES } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { sleep, until } from '../helpers/wait';

// The first index reads the newest transcripts first and announces each file's sessions as it
// goes: on a large history, the sessions people open first are listed while the rest is read.

let root: string;
const mainFiles: string[] = [];

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-newest-'));
  cpSync(FIXTURES, root, { recursive: true });
  // every main transcript gets its own age, in an order unlike the directory listing's
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    const inProject = entry.parentPath.split('/').length === root.split('/').length + 1;
    // a session's own file (an older layout keeps subagents' agent-*.jsonl beside it)
    if (entry.isFile() && entry.name.endsWith('.jsonl') && !entry.name.startsWith('agent-') && inProject) {
      mainFiles.push(join(entry.parentPath, entry.name));
    }
  }
  mainFiles.sort().reverse();
  const now = Date.now() / 1000;
  // everything else is older than every main file, so each main file is read before them
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) utimesSync(join(entry.parentPath, entry.name), now - 86_400, now - 86_400);
  }
  for (const [i, file] of mainFiles.entries()) utimesSync(file, now - i * 60, now - i * 60);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the first index', () => {
  it('reads files newest first, announcing sessions file by file before it is done', async () => {
    const catalog = new SessionCatalog('test');
    const announced: string[] = [];
    const doneWhenAnnounced: boolean[] = [];
    const tracker = new TranscriptTracker(root, catalog, {
      changed: (keys) => {
        for (const key of keys) {
          if (announced.includes(key)) continue;
          announced.push(key);
          doneWhenAnnounced.push(tracker.progress.done);
        }
      },
      log: () => {},
    });
    const read: string[] = [];
    await tracker.start((p) => read.push(`${p.filesDone}`));
    await tracker.stop();
    const keyOf = (file: string) =>
      file
        .split('/')
        .pop()!
        .replace(/\.jsonl$/, '');
    const expected = mainFiles.map(keyOf).filter((key) => catalog.isVisible(key));
    const order = announced.filter((key) => expected.includes(key));
    expect(order).toEqual(expected);
    // the newest session was announced while most files were still unread
    expect(doneWhenAnnounced[announced.indexOf(expected[0])]).toBe(false);
    expect(read.length).toBeGreaterThan(expected.length);
  });

  it.skipIf(process.platform !== 'linux')('closes a file it opened ahead of its turn when the file is deleted before that turn', async () => {
    const { dir, fileOf, opened } = sessionsOneMinuteApart(['s1', 's2', 's3']);
    // the read of the newest file held: the two after it are opened ahead meanwhile
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const read = FileTail.prototype.read;
    const spy = vi.spyOn(FileTail.prototype, 'read').mockImplementation(async function (this: FileTail, ...args) {
      if (this.path === fileOf('s1')) await held;
      return read.apply(this, args);
    });
    const catalog = new SessionCatalog('test');
    const tracker = new TranscriptTracker(dir, catalog, { changed: () => {}, log: () => {} });
    try {
      const started = tracker.start();
      await until(() => spy.mock.calls.length > 0, 'the read of s1');
      expect(opened('s2')).toHaveLength(1);
      rmSync(fileOf('s2'));
      await until(() => !tracker.paths().includes(fileOf('s2')), 'the deletion of s2, seen');
      release();
      await started;
      expect(opened('s2')).toEqual([]);
      expect(catalog.get('s3')?.atomCount()).toBe(2);
    } finally {
      spy.mockRestore();
      await tracker.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(process.platform !== 'linux')('closes every file it opened ahead when it stops while a read a write signalled holds one of them', async () => {
    const { dir, fileOf, opened } = sessionsOneMinuteApart(['s1', 's2', 's3', 's4']);
    let release1 = () => {};
    const held1 = new Promise<void>((resolve) => (release1 = resolve));
    let release3 = () => {};
    const held3 = new Promise<void>((resolve) => (release3 = resolve));
    let readsOfS3 = 0;
    const read = FileTail.prototype.read;
    const spy = vi.spyOn(FileTail.prototype, 'read').mockImplementation(async function (this: FileTail, ...args) {
      if (this.path === fileOf('s1')) await held1;
      const outcome = await read.apply(this, args);
      // the read a write to s3 starts (it takes s3's file opened ahead) is slow to end
      if (this.path === fileOf('s3') && readsOfS3++ === 0) await held3;
      return outcome;
    });
    const catalog = new SessionCatalog('test');
    const tracker = new TranscriptTracker(dir, catalog, { changed: () => {}, log: () => {} });
    try {
      const started = tracker.start();
      await until(() => spy.mock.calls.length > 0, 'the read of s1');
      appendFileSync(fileOf('s3'), line(prompt('s3-q', 's3-a', 'more')));
      await until(() => readsOfS3 > 0, 'the read of s3 the write signalled');
      // the index goes on: s3 is opened ahead again, and its turn joins the signalled read
      release1();
      await until(() => opened('s3').length === 1 && catalog.get('s2')?.atomCount(), 'the index at s3');
      await sleep(50);
      const stopping = tracker.stop();
      release3();
      await stopping;
      await started;
      expect(opened('s3')).toEqual([]);
    } finally {
      release1();
      release3();
      spy.mockRestore();
      await tracker.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A projects tree of one session per key, each a minute older than the one before, and its files' open descriptors (Linux). */
function sessionsOneMinuteApart(keys: string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'loom-ahead-'));
  const fileOf = (key: string) => join(dir, '-home-dev-demo', `${key}.jsonl`);
  mkdirSync(join(dir, '-home-dev-demo'));
  const now = Date.now() / 1000;
  for (const [i, key] of keys.entries()) {
    writeFileSync(fileOf(key), [prompt(`${key}-p`, null, key), assistant(`${key}-a`, `${key}-p`, [say('ok')], 'end_turn')].map(line).join(''));
    utimesSync(fileOf(key), now - i * 60, now - i * 60);
  }
  const opened = (key: string) =>
    readdirSync('/proc/self/fd').filter((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`).startsWith(fileOf(key));
      } catch {
        return false; // closed since it was listed
      }
    });
  return { dir, fileOf, opened };
}
