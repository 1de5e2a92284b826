import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { FileTail } from '../../spoke/transcripts/tail';
import { assistant, line, prompt, say } from '../helpers/records';

// While the first index runs, every session read is a change. A subscriber hears of them
// together a few times a second, not once per file: a dashboard open on a long history otherwise
// took a frame per session on each of its streams (docs/performance.md, A dashboard open during
// the first index).

let root: string;
const fileOf = (key: string) => join(root, '-home-dev-batch', `${key}.jsonl`);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-first-changes-'));
  mkdirSync(join(root, '-home-dev-batch'));
  const now = Date.now() / 1000;
  for (let i = 0; i < 3; i++) {
    writeFileSync(fileOf(`s${i}`), line(prompt(`s${i}-p`, null, `task ${i}`)) + line(assistant(`s${i}-a`, `s${i}-p`, [say('done')], 'end_turn')));
    utimesSync(fileOf(`s${i}`), now - i * 60, now - i * 60);
  }
});
afterAll(() => {
  vi.restoreAllMocks();
  rmSync(root, { recursive: true, force: true });
});

describe('changes during the first index', () => {
  it('reach a subscriber held together for a quarter of a second, and keep coming after it', async () => {
    // the first file is read, then the index waits at the second until let go
    let letGo = () => {};
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    let firstRead = 0;
    const read = FileTail.prototype.read;
    vi.spyOn(FileTail.prototype, 'read').mockImplementation(async function (this: FileTail, ...args) {
      if (this.path === fileOf('s1')) await gate;
      const done = await read.apply(this, args);
      if (this.path === fileOf('s0')) firstRead = performance.now();
      return done;
    });
    const source = new LocalSource({ projectsRoot: root, host: 'test', indexWorkers: 0, log: () => {} });
    const changes = source.sessionsChanged(null);
    const started = source.start();
    const first = await changes.next();
    const heard = performance.now();
    expect(first.value).toMatchObject({ key: 's0' });
    expect(heard - firstRead).toBeGreaterThanOrEqual(200);
    letGo();
    await started;
    // after the first index, changes still come
    const next = changes.next();
    writeFileSync(fileOf('s0'), line(prompt('s0-more', 's0-a', 'and then')), { flag: 'a' });
    const since = performance.now();
    await next;
    expect(performance.now() - since).toBeLessThan(5_000);
    await changes.return?.();
    await source.stop();
  });
});
