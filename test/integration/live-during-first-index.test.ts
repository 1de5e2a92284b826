import { appendFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import type { TranscriptSession } from '../../spoke/transcripts/session';
import { FileTail } from '../../spoke/transcripts/tail';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { assistant, line, prompt, say } from '../helpers/records';

// A session Claude Code is writing while the first index runs: the index puts each session to
// sleep once read, and a sleeping session is read whole again to wake it for new lines. Woken
// once, the live session stays awake, so later appends are read alone: before, every append
// during the first index read its whole transcript again (docs/performance.md, A session
// written to during the first index).

let root: string;
const project = '-home-dev-live';
const fileOf = (key: string) => join(root, project, `${key}.jsonl`);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-live-first-'));
  mkdirSync(join(root, project));
  const now = Date.now() / 1000;
  // s0 is the newest, so the first index reads it first and puts it to sleep before the others
  for (let i = 0; i < 6; i++) {
    writeFileSync(fileOf(`s${i}`), line(prompt(`s${i}-p`, null, `task ${i}`)) + line(assistant(`s${i}-a`, `s${i}-p`, [say('on it')])));
    utimesSync(fileOf(`s${i}`), now - i * 60, now - i * 60);
  }
});
afterAll(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('a session written to during the first index', () => {
  it('is read whole again once to wake it, not at each append', async () => {
    const catalog = new SessionCatalog('test');
    let wakes = 0;
    const beginWaking = catalog.beginWaking.bind(catalog);
    vi.spyOn(catalog, 'beginWaking').mockImplementation((group: TranscriptSession[]) => {
      if (group.some((s) => s.key === 's0' && s.sleeping)) wakes++;
      beginWaking(group);
    });
    const appends: Promise<void>[] = [];
    let written = 0;
    // the index reads each other file once the appends so far are read, as with files of some size
    const read = FileTail.prototype.read;
    vi.spyOn(FileTail.prototype, 'read').mockImplementation(async function (this: FileTail, ...args) {
      if (this.path !== fileOf('s0')) await Promise.all(appends);
      return read.apply(this, args);
    });
    const tracker = new TranscriptTracker(root, catalog, {
      changed: () => {},
      log: () => {},
      // two appends to s0 while other files are read, each read at once, as a watch would
      read: (path) => {
        if (path !== fileOf('s1') && path !== fileOf('s3')) return;
        written++;
        appendFileSync(fileOf('s0'), line(prompt(`s0-more-${written}`, written === 1 ? 's0-a' : 's0-more-1', `and then ${written}`)));
        appends.push((tracker as unknown as { pump(path: string): Promise<void> }).pump(fileOf('s0')));
      },
    });
    await tracker.start();
    await Promise.all(appends);
    await tracker.stop();
    expect(written).toBe(2);
    expect(wakes).toBe(1);
    const live = catalog.get('s0')!;
    expect(live.sleeping).toBeNull();
    expect(live.activePath().map((a) => a.uuid)).toEqual(['s0-p', 's0-a', 's0-more-1', 's0-more-2']);
    // every other session fell asleep as it was read
    expect([...catalog.all()].filter((s) => !s.sleeping).map((s) => s.key)).toEqual(['s0']);
  });
});
