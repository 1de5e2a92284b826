import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import { IndexPool } from '../../spoke/transcripts/index-pool';
import { placeOf } from '../../spoke/transcripts/paths';
import { ingestPrefetched } from '../../spoke/transcripts/read-ahead';
import { FileTail } from '../../spoke/transcripts/tail';

// A line too long for an index worker (what it parses to could pass the worker's heap, and a
// worker out of heap can take the whole process with it) is left to the kernel's thread, which
// reads the file on from the worker's last batch, every line once.

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
  it('is left with the rest of its file to the kernel thread, which reads on from the last batch, every line once', async () => {
    const logs: string[] = [];
    const pool = new IndexPool(1, (m) => logs.push(m), 40);
    const place = placeOf(root, file)!;
    const catalog = new SessionCatalog('test');
    const ingest = catalog.openFile(file, place, false);
    const tail = new FileTail(file);
    const prefetch = pool.read(file, place, statSync(file).size);
    await ingestPrefetched(prefetch, ingest, tail);
    expect(prefetch.failure).toMatchObject({ died: false, message: `line ${BEFORE + 1} is longer than 4 MB` });
    // the worker posted every line before the long one
    expect(tail.lines).toBe(BEFORE);
    await tail.read({ restart: () => {}, line: (l) => ingest.line(l) });
    expect(tail.lines).toBe(BEFORE + 1 + AFTER);
    const session = catalog.get(SESSION)!;
    expect(session.activePath().map((a) => a.sequence)).toEqual(Array.from({ length: BEFORE + 1 + AFTER }, (_, i) => i + 1));
    expect(logs).toEqual([]);
    await pool.close();
  }, 60_000);
});
