import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSource } from '../../spoke/source';
import type { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { assistant, line, prompt, say } from '../helpers/records';

// Resuming a `loom run` session names its Claude Code sessions with the one that wrote its newest
// line last, which only its path (the session awake) tells. A session can fall asleep again
// between its wake and that read (during the first index, any other read puts it to sleep once
// as many sessions woken since are awake as the awake limit allows: here none), so the read
// wakes it until it finds it awake, as every other reader of a session does.

const LOOM = '11111111-2222-3333-4444-555555555555';
let base: string;
let source: LocalSource;

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'loom-session-files-'));
  const project = join(base, 'projects', '-home-dev-port');
  const live = join(base, 'live');
  mkdirSync(project, { recursive: true });
  mkdirSync(live);
  // two Claude Code sessions of one `loom run` session, as its hooks reported them
  for (const id of ['first', 'second']) {
    const input = JSON.stringify({ session_id: id, hook_event_name: 'SessionStart', source: 'startup' });
    writeFileSync(join(live, `${id}.jsonl`), `${JSON.stringify({ t: '2026-03-01T10:00:00Z', event: 'SessionStart', loom_session: LOOM, input })}\n`);
  }
  writeFileSync(join(project, 'first.jsonl'), line(prompt('p1', null, 'start the port')) + line(assistant('a1', 'p1', [say('started')], 'end_turn')));
  writeFileSync(join(project, 'second.jsonl'), line(prompt('p2', null, 'finish the port')) + line(assistant('a2', 'p2', [say('finished')], 'end_turn')));
  // newest first: the second file is read first, so it is the session's first file
  utimesSync(join(project, 'first.jsonl'), new Date('2026-03-01'), new Date('2026-03-01'));
  utimesSync(join(project, 'second.jsonl'), new Date('2026-03-02'), new Date('2026-03-02'));
  source = new LocalSource({ projectsRoot: join(base, 'projects'), liveDir: live, host: 'test', indexWorkers: 0, awakeLimit: 0, log: () => {} });
  await source.start();
});
afterAll(async () => {
  await source.stop();
  rmSync(base, { recursive: true, force: true });
});

describe("a session's Claude Code sessions, for a resume", () => {
  it('come with the newest last, though the session fell asleep again after its first wake', async () => {
    const tracker = (source as unknown as { tracker: TranscriptTracker }).tracker;
    const catalog = (source as unknown as { catalog: { trim(keep: [], firstIndex: boolean): void } }).catalog;
    const wake = tracker.wake.bind(tracker);
    let wakes = 0;
    tracker.wake = async (key: string) => {
      await wake(key);
      // another file's read, as during the first index, puts it to sleep before it is read
      if (++wakes === 1) catalog.trim([], true);
    };
    const files = await source.sessionFiles(LOOM);
    expect(files?.claudeIds).toEqual(['first', 'second']);
    expect(wakes).toBe(2);
  });
});
