import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bareAtom } from '../../spoke/model/atom';
import { placeOf } from '../../spoke/transcripts/paths';
import { type GraphRecord, parseLine, type TranscriptRecord } from '../../spoke/transcripts/record';
import { type PackedRecords, RecordPacker, transferList, unpackRecords } from '../../spoke/transcripts/record-transfer';
import { FileTail } from '../../spoke/transcripts/tail';
import { FIXTURES } from '../helpers/kernel';

interface Parsed {
  result: TranscriptRecord | string;
  number: number;
  offset: number;
}

const fixtureFiles = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.jsonl'))
  .map((name) => join(FIXTURES, name))
  .filter((path) => placeOf(FIXTURES, path) !== null);

/** Every line's result as the kernel's thread parses it, and the same results packed in batches of `batch` and unpacked. */
async function bothWays(path: string, batch: number): Promise<{ direct: Parsed[]; unpacked: Parsed[]; batches: PackedRecords[] }> {
  const place = placeOf(FIXTURES, path)!;
  const direct: Parsed[] = [];
  const packer = new RecordPacker();
  const batches: PackedRecords[] = [];
  await new FileTail(path).read({
    restart: () => {},
    line: (line) => {
      const result = parseLine(line, path, place);
      if (result !== null) direct.push({ result, number: line.number, offset: line.offset });
      packer.add(result, line.number, line.offset);
      if (packer.size === batch) batches.push(packer.take());
    },
  });
  batches.push(packer.take());
  const unpacked: Parsed[] = [];
  for (const b of batches) unpackRecords(b, path, place.fsid, (result, number, offset) => unpacked.push({ result, number, offset }));
  return { direct, unpacked, batches };
}

describe('record transfer', () => {
  it('finds the fixtures it round-trips', () => {
    expect(fixtureFiles.length).toBeGreaterThan(10);
  });

  it.each(fixtureFiles.map((path) => [path.slice(FIXTURES.length + 1), path]))(
    'unpacks every record of %s deep-equal to what parseLine gave',
    async (_name, path) => {
      for (const batch of [1, 7, 100_000]) {
        const { direct, unpacked } = await bothWays(path, batch);
        expect(unpacked.map((u) => u.result)).toEqual(direct.map((d) => d.result));
        // a line that holds no record keeps its place, for the session's parse errors
        const reasons = (list: Parsed[]) => list.filter((p) => typeof p.result === 'string').map((p) => [p.number, p.offset]);
        expect(reasons(unpacked)).toEqual(reasons(direct));
      }
    },
  );

  it('packs into buffers that can be transferred, storing a recurring string once per batch', async () => {
    const path = fixtureFiles.find((p) => p.endsWith('.jsonl') && !p.includes('subagents'))!;
    const { direct, batches } = await bothWays(path, 100_000);
    const [only] = batches;
    expect(transferList(only).every((b) => b instanceof ArrayBuffer)).toBe(true);
    const bytes = Buffer.from(only.bytes);
    const stored = [...only.ends].map((end, i) => bytes.toString('utf8', i === 0 ? 0 : only.ends[i - 1], end));
    const assistantLines = direct.filter((d) => typeof d.result !== 'string' && d.result.kind === 'graph' && d.result.recordType === 'assistant');
    expect(assistantLines.length).toBeGreaterThan(1);
    expect(stored.filter((s) => s === 'assistant')).toHaveLength(1);
  });

  it('round-trips what the fixtures lack: reasons, titles, authors with more than a kind, offsets past 2 GB, any text', () => {
    const file = '/p/s.jsonl';
    const atom = (uuid: string, author: NonNullable<GraphRecord['atom']>['author']) => {
      const a = bareAtom(uuid, 'user', 1_700_000_000_123, { fsid: 's', file, offset: 3 * 2 ** 31 + 5, length: 70_000 });
      a.author = author;
      a.promptLine = 'naïve café ✓ 🧵';
      a.toolResults = [];
      return a;
    };
    const graph = (uuid: string, author: NonNullable<GraphRecord['atom']>['author']): GraphRecord => ({
      kind: 'graph',
      uuid,
      parent: null,
      sidechain: true,
      recordType: 'user',
      file,
      atom: atom(uuid, author),
      boundary: { logicalParent: null, preservedTail: 'tail' },
      cwd: '/home/ü',
      gitBranch: null,
      sessionId: 'parent',
      subagentUsage: null,
    });
    const results: (TranscriptRecord | string)[] = [
      'not JSON: Unexpected token } in JSON at position 7',
      { kind: 'title', title: 'Fix the parser — ✓', custom: true },
      { kind: 'title', title: 'AI title', custom: false },
      { kind: 'other', recordType: 'queue-operation', sidechain: false, uuid: null, parent: null },
      graph('a', { kind: 'human', via: 'loom', messageId: 'm1' }),
      graph('b', { kind: 'peer', peer: 'reviewer' }),
      graph('c', { kind: 'sdk' }),
      graph('d', null),
    ];
    const packer = new RecordPacker();
    for (const [i, r] of results.entries()) packer.add(r, i + 1, 2 ** 32 + i);
    packer.add(null, 99, 0);
    const back: Parsed[] = [];
    unpackRecords(packer.take(), file, 's', (result, number, offset) => back.push({ result, number, offset }));
    expect(back.map((b) => b.result)).toEqual(results);
    expect(back[0]).toMatchObject({ number: 1, offset: 2 ** 32 });
  });
});
