import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { IndexPool } from '../../spoke/transcripts/index-pool';
import { placeOf } from '../../spoke/transcripts/paths';

// A line too long for an index worker (what it parses to could pass the worker's heap, and a
// worker out of heap can take the whole process with it) leaves its project to the kernel's
// thread, which indexes it whole.

const SESSION = '7b0c35c2-4d36-4c8e-9f0a-1c2d3e4f5a6b';
const BEFORE = 3000;
const AFTER = 10;
let root: string;
let file: string;

const line = (i: number, content: unknown = `prompt ${i}`) =>
  JSON.stringify({
    type: 'user',
    uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    parentUuid: i === 0 ? null : `00000000-0000-4000-8000-${String(i - 1).padStart(12, '0')}`,
    timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
    message: { role: 'user', content },
  });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-worker-death-'));
  mkdirSync(join(root, 'project'));
  file = join(root, 'project', `${SESSION}.jsonl`);
  const lines = Array.from({ length: BEFORE }, (_, i) => line(i));
  // millions of small objects: more than the worker's heap, were it parsed there
  lines.push(
    line(
      BEFORE,
      Array.from({ length: 3_000_000 }, (_, n) => ({ n })),
    ),
  );
  for (let i = BEFORE + 1; i <= BEFORE + AFTER; i++) lines.push(line(i));
  writeFileSync(file, `${lines.join('\n')}\n`);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a line too long for an index worker', () => {
  it('fails its project there without parsing the line, the worker alive', async () => {
    const logs: string[] = [];
    // a heap the line's millions of objects would not fit in
    const pool = new IndexPool(1, (m) => logs.push(m), 40);
    try {
      const job = pool.share(
        { project: 'project', files: [{ path: file, place: placeOf(root, file)! }], summaries: [], awakeLimit: 2, cut: false },
        statSync(file).size,
      );
      expect(await job.outcome).toEqual({ failure: { died: false, message: `line ${BEFORE + 1} of ${file} is longer than 4 MB` } });
      expect(logs).toEqual([]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('leaves its project to the kernel thread, which reads every line once', async () => {
    const source = new LocalSource({ projectsRoot: root, host: 'test', indexWorkers: 1, indexWorkersAfter: 0, waitForIndexWorkers: true });
    try {
      await source.start();
      expect(source.kernel().indexing.filesByWorkers).toBe(0);
      const session = source.session('test', SESSION)!;
      expect(session.atomCount).toBe(BEFORE + 1 + AFTER);
      expect(session.files[0].lines).toBe(BEFORE + 1 + AFTER);
    } finally {
      await source.stop();
    }
  }, 60_000);
});
