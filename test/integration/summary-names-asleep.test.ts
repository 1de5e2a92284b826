import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { writeConversation } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// A `summary` line names the session whose path runs through its leaf. Claude Code writes them
// at the top of a resumed session's new file, naming the old session's last message, by which
// time the old session is asleep in Loom (only the sessions in use stay awake). A summary of a
// sleeping session's last atom names it at once, with nothing read again: no atom lies further
// along, so it is the name the session has awake too.

const HOST = 'test';
let root: string;
let state: string;
let app: string;

const summary = (text: string, leaf: string) => `${JSON.stringify({ type: 'summary', summary: text, leafUuid: leaf })}\n`;
const customTitle = (session: string, title: string) => `${JSON.stringify({ type: 'custom-title', customTitle: title, sessionId: session })}\n`;

/** `target` (its path ends at target-a1), then two more sessions read after it, so that it falls asleep. */
function writeTree(): void {
  const files = [
    writeConversation(join(app, 'target.jsonl'), 'target', 2),
    writeConversation(join(app, 'other.jsonl'), 'other', 1),
    writeConversation(join(app, 'third.jsonl'), 'third', 1),
  ];
  // newest first: the target is read first, and is the least recently used when the others are
  const now = Date.now() / 1000;
  for (const [i, path] of files.entries()) utimesSync(path, now - 600 - i * 60, now - 600 - i * 60);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-summary-'));
  state = mkdtempSync(join(tmpdir(), 'loom-summary-state-'));
  app = join(root, '-home-dev-app');
  mkdirSync(app);
  writeTree();
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(state, { recursive: true, force: true });
});

async function indexed(changed: (keys: string[]) => void = () => {}) {
  const catalog = new SessionCatalog(HOST, 1);
  const tracker = new TranscriptTracker(root, catalog, { changed, log: () => {}, cacheFile: join(state, 'index-cache.json') });
  await tracker.start();
  const target = catalog.get('target')!;
  expect(target.sleeping).not.toBeNull();
  expect(catalog.summary(target).name).toBe('xxxxxxxxxx');
  return { catalog, tracker, target };
}

describe('a summary naming a sleeping session', () => {
  it("names it at once when it names the session's last message, and says the session changed", async () => {
    const changes: string[][] = [];
    const { catalog, tracker, target } = await indexed((keys) => changes.push(keys));
    changes.length = 0;
    writeConversation(join(app, 'resumed.jsonl'), 'resumed', 1, { head: summary('Fix the parser', 'target-a1') });
    await until(() => changes.some((keys) => keys.includes('target')), 'the target told it changed');
    expect(catalog.summary(target).name).toBe('Fix the parser');
    expect(target.sleeping).not.toBeNull();
    // awake, the rule gives the same name
    await tracker.wake('target');
    expect(target.sleeping).toBeNull();
    expect(catalog.summary(target).name).toBe('Fix the parser');
    await tracker.stop();
  });

  it('says an awake session it names changed', async () => {
    const changes: string[][] = [];
    const { catalog, tracker, target } = await indexed((keys) => changes.push(keys));
    await tracker.wake('target');
    const unpin = catalog.pin('target'); // as while someone streams it
    changes.length = 0;
    writeConversation(join(app, 'resumed.jsonl'), 'resumed', 1, { head: summary('Fix the parser', 'target-a1') });
    await until(() => changes.some((keys) => keys.includes('target')), 'the target told it changed');
    expect(target.sleeping).toBeNull();
    expect(catalog.summary(target).name).toBe('Fix the parser');
    unpin();
    await tracker.stop();
  });

  it('leaves the name to its wake when the summary names an earlier message', async () => {
    const { catalog, tracker, target } = await indexed();
    writeConversation(join(app, 'resumed.jsonl'), 'resumed', 1, { head: summary('An earlier summary', 'target-a0') });
    await until(() => catalog.get('resumed'), 'the new file read');
    expect(catalog.summary(target).name).toBe('xxxxxxxxxx');
    await tracker.wake('target');
    expect(catalog.summary(target).name).toBe('An earlier summary');
    await tracker.stop();
  });

  it('keeps a title over a summary', async () => {
    appendFileSync(join(app, 'target.jsonl'), customTitle('target', 'My title'));
    const catalog = new SessionCatalog(HOST, 1);
    const tracker = new TranscriptTracker(root, catalog, { changed: () => {}, log: () => {} });
    await tracker.start();
    const target = catalog.get('target')!;
    expect(target.sleeping).not.toBeNull();
    writeConversation(join(app, 'resumed.jsonl'), 'resumed', 1, { head: summary('Fix the parser', 'target-a1') });
    await until(() => catalog.get('resumed'), 'the new file read');
    expect(catalog.summary(target).name).toBe('My title');
    await tracker.stop();
  });

  it('keeps the newest summary when a file with an older one is read again to wake its session', async () => {
    const { catalog, tracker, target } = await indexed();
    writeConversation(join(app, 'first.jsonl'), 'first', 1, { head: summary('First summary', 'target-a1') });
    await until(() => catalog.summary(target).name === 'First summary', 'the first summary read');
    writeConversation(join(app, 'second.jsonl'), 'second', 1, { head: summary('Second summary', 'target-a1') });
    await until(() => catalog.summary(target).name === 'Second summary', 'the second summary read');
    // waking `first` reads its lines again, its summary among them: read before, it is not news
    expect(catalog.get('first')!.sleeping).not.toBeNull();
    await tracker.wake('first');
    expect(catalog.get('first')!.sleeping).toBeNull();
    expect(catalog.summary(target).name).toBe('Second summary');
    await tracker.wake('target');
    expect(catalog.summary(target).name).toBe('Second summary');
    await tracker.stop();
  });

  it('names it from a summary read after a restart from the index cache', async () => {
    const first = await indexed();
    await first.tracker.stop();
    // written while Loom was stopped
    writeConversation(join(app, 'resumed.jsonl'), 'resumed', 1, { head: summary('Fix the parser', 'target-a1') });
    const catalog = new SessionCatalog(HOST, 1);
    const tracker = new TranscriptTracker(root, catalog, { changed: () => {}, log: () => {}, cacheFile: join(state, 'index-cache.json') });
    await tracker.start();
    const target = catalog.get('target')!;
    expect(target.sleeping).not.toBeNull();
    expect(catalog.summary(target).name).toBe('Fix the parser');
    await tracker.stop();
  });

  it('ignores an index cache of the format before (sessions without their leaf), moving nothing aside', async () => {
    const first = await indexed();
    await first.tracker.stop();
    const file = join(state, 'index-cache.json');
    const old = JSON.parse(readFileSync(file, 'utf8'));
    old.format = 11;
    for (const s of old.sessions) delete s.facts.leaf;
    writeFileSync(file, JSON.stringify(old));
    const logs: string[] = [];
    const catalog = new SessionCatalog(HOST, 1);
    const tracker = new TranscriptTracker(root, catalog, { changed: () => {}, log: (m) => logs.push(m), cacheFile: file });
    await tracker.start();
    expect(logs.filter((l) => l.includes('index cache'))).toEqual([]);
    expect(readdirSync(state).filter((f) => f.includes('corrupt'))).toEqual([]);
    expect(catalog.summary(catalog.get('target')!).name).toBe('xxxxxxxxxx');
    expect(catalog.get('target')!.sleeping?.leaf).toBe('target-a1');
    await tracker.stop();
  });
});

describe('a summary in an older file that names a newer session', () => {
  it('names it the same with index workers as without', async () => {
    // the summary's file is older than the session it names: read after it, newest first
    const old = writeConversation(join(app, 'older.jsonl'), 'older', 1, { head: summary('Named from an older file', 'target-a1') });
    const before = Date.now() / 1000 - 3600;
    utimesSync(old, before, before);
    const names: string[] = [];
    for (const indexWorkers of [0, 1]) {
      const s = new LocalSource({ projectsRoot: root, host: HOST, indexWorkers, indexWorkersAfter: 1, waitForIndexWorkers: true, log: () => {} });
      await s.start();
      names.push(s.session(HOST, 'target')!.name);
      if (indexWorkers > 0) expect(s.kernel().indexing.filesByWorkers).toBeGreaterThan(0);
      await s.stop();
    }
    expect(names).toEqual(['Named from an older file', 'Named from an older file']);
  });
});
