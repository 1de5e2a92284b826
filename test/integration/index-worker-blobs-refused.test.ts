import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { BlobStore } from '../../spoke/store/blob-store';
import { transcriptLine } from '../helpers/transcript-tree';

// The kernel's thread appends a worker's usage rows and goals to the cache's blob file before it
// releases the project's held files. A write refused there (a full disk) must leave nothing held:
// else every read of those files (a signal, a wake) and stop(), which waits for each, hang.

const HOST = 'test';
let root: string;
let dir: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-review-throw-'));
  dir = mkdtempSync(join(tmpdir(), 'loom-review-throw-cache-'));
  const app = join(root, '-home-dev-app');
  mkdirSync(app);
  let text = '';
  for (let i = 0; i < 3; i++) {
    text += transcriptLine('s', `s-u${i}`, i === 0 ? null : `s-a${i - 1}`, 'user', 'hello');
    text += transcriptLine('s', `s-a${i}`, `s-u${i}`, 'assistant', 'ok');
  }
  const path = join(app, 's.jsonl');
  writeFileSync(path, text);
  const now = Date.now() / 1000;
  utimesSync(path, now - 3600, now - 3600);
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(dir, { recursive: true, force: true });
});
afterEach(() => vi.restoreAllMocks());

describe('a worker project whose blobs cannot be appended to the cache', () => {
  it('leaves no file held: stop() returns', async () => {
    const append = BlobStore.prototype.append;
    vi.spyOn(BlobStore.prototype, 'append').mockImplementation(function (this: BlobStore, bytes: Uint8Array) {
      // the worker's whole buffer (the sessions' goals and usage rows), as a full disk refuses it
      if (bytes.length > 64) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      return append.call(this, bytes);
    });
    const s = new LocalSource({
      projectsRoot: root,
      host: HOST,
      indexWorkers: 1,
      indexWorkersAfter: 0,
      waitForIndexWorkers: true,
      cacheFile: join(dir, 'index-cache.json'),
      log: () => {},
    });
    await s.start().catch(() => {});
    const stopped = await Promise.race([s.stop().then(() => 'stopped'), new Promise((r) => setTimeout(() => r('still held after 5 s'), 5000))]);
    expect(stopped).toBe('stopped');
  });
});
