import { cpSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { FIXTURES } from '../helpers/kernel';

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
});
