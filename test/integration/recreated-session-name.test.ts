import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import { TranscriptTracker } from '../../spoke/transcripts/tracker';
import { writeTranscript } from '../helpers/transcript-tree';
import { until } from '../helpers/wait';

// A session forgotten (its only file deleted) and written again under the same key is a new
// session: nothing of the old one's name may stand for it (its version counts from 0 again).

it('a session deleted then written again is named from its new lines', async () => {
  const root = mkdtempSync(join(tmpdir(), 'loom-re-'));
  const app = join(root, '-home-dev-app');
  mkdirSync(app);
  const path = writeTranscript(join(app, 'one.jsonl'), 'one', 'task one');
  const catalog = new SessionCatalog('test');
  const tracker = new TranscriptTracker(root, catalog, { changed: () => {}, log: () => {} });
  await tracker.start();
  expect(catalog.summary(catalog.get('one')!).name).toBe('task one');
  rmSync(path);
  await until(() => !catalog.get('one'), 'forgotten');
  writeTranscript(path, 'one', 'task two');
  const again = await until(() => catalog.get('one')?.atomCount() === 2 && catalog.get('one'), 'read again');
  expect(catalog.summary(again).name).toBe('task two');
  await tracker.stop();
  rmSync(root, { recursive: true, force: true });
});
