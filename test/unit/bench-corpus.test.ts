import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { type CopiedFile, writeRealCorpus } from '../bench/real-corpus';
import { TranscriptIds } from '../bench/transcript-ids';
import { FIXTURES } from '../helpers/kernel';

// The bench's real-transcript corpus (test/bench/real-corpus.ts): two copies of the real
// fixtures, each id rewritten and every other byte kept. The copies must index exactly like
// the fixtures do, twice over, or the bench would measure something else than real transcripts.

let dir: string;
let root: string;
let files: CopiedFile[];
let ids: TranscriptIds;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loom-bench-corpus-'));
  root = join(dir, 'projects');
  files = (await writeRealCorpus(root, 2, Date.UTC(2026, 10, 1))).files;
  ids = TranscriptIds.of(tree(0, 'source'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const latin1 = (path: string) => readFileSync(path, 'latin1');

/** One copy's files (or the sources they were copied from), by path under their root: their text. */
function tree(copyIndex: number, side: 'source' | 'copy'): Map<string, string> {
  const under = side === 'source' ? FIXTURES : root;
  return new Map(files.filter((f) => f.copyIndex === copyIndex).map((f) => [relative(under, f[side]), latin1(f[side])]));
}

const LINK_FIELDS = /^(uuid|parentUuid|leafUuid|logicalParentUuid|sessionId|requestId|id|tool_use_id|agentId|messageId)$/;

/** Each id of a record found by name, wherever it sits: the ids the kernel links records by. */
function linkIds(record: unknown, into: string[] = []): string[] {
  if (Array.isArray(record)) for (const v of record) linkIds(v, into);
  else if (record && typeof record === 'object') {
    for (const [key, v] of Object.entries(record)) {
      if (typeof v === 'string' && LINK_FIELDS.test(key)) into.push(v);
      else linkIds(v, into);
    }
  }
  return into;
}

/** Indexes a projects tree and describes each listed session by its counts (its subagents' included). */
async function census(projects: string): Promise<{ sessions: number; shapes: string[] }> {
  const source = new LocalSource({ projectsRoot: projects, host: 'bench' });
  await source.start();
  try {
    const listed = source.sessions({}, 500, null).sessions;
    const shapes = listed.map((s) => {
      const subagents = s.subagentKeys.map((key) => source.session('bench', key)!);
      return `${s.atomCount} atoms, ${s.turnCount} turns, subagents of ${subagents.map((c) => c.atomCount).sort((a, b) => a - b)} atoms`;
    });
    return { sessions: source.kernel().sessionCount, shapes: shapes.sort() };
  } finally {
    await source.stop();
  }
}

describe('the real-transcript bench corpus', () => {
  it('keeps every line the length of its source line, changed only inside ids', () => {
    expect(files).toHaveLength(72);
    for (const file of files) {
      const sourceLines = latin1(file.source).split('\n');
      const copyLines = latin1(file.copy).split('\n');
      expect(copyLines.map((l) => l.length)).toEqual(sourceLines.map((l) => l.length));
      for (const [i, line] of sourceLines.entries()) {
        const copy = copyLines[i];
        let from = 0;
        for (const [start, end] of [...ids.spans(line), [line.length, line.length]]) {
          if (copy.slice(from, start) !== line.slice(from, start))
            throw new Error(`${file.copy}:${i + 1} changed between ${from} and ${start}, outside any id`);
          from = end;
        }
        if (line) {
          const before = linkIds(JSON.parse(line));
          const after = linkIds(JSON.parse(copy));
          // every id is rewritten; counters (todo ids "1", shell `bash_1`) and ids made of words stay
          for (const [n, id] of before.entries()) if (!/^(\d+|bash_\d+|[a-z]+(-[a-z]+)+)$/.test(id)) expect(after[n]).not.toBe(id);
        }
      }
    }
  });

  it('gives no id to two copies', () => {
    // each tree's ids found afresh (its agent ids are its own): by shape, by field, by file name
    const idsOf = (texts: Map<string, string>) => {
      const found = TranscriptIds.of(texts);
      return new Set([...texts].flatMap(([path, text]) => [...found.in(path), ...found.in(text)]));
    };
    const [first, second, original] = [idsOf(tree(0, 'copy')), idsOf(tree(1, 'copy')), idsOf(tree(0, 'source'))];
    expect(first.size).toBeGreaterThan(10_000);
    expect(second.size).toBe(first.size);
    expect([...first].filter((id) => second.has(id) || original.has(id))).toEqual([]);
    expect([...second].filter((id) => original.has(id))).toEqual([]);
  });

  it('makes each copy older than the one before it', () => {
    const times = (copyIndex: number) => files.filter((f) => f.copyIndex === copyIndex).map((f) => statSync(f.copy).mtimeMs);
    expect(Math.max(...times(1))).toBeLessThan(Math.min(...times(0)));
  });

  it('indexes as the fixtures do, twice over', async () => {
    const [original, copies] = [await census(FIXTURES), await census(root)];
    expect(original.sessions).toBeGreaterThan(20);
    expect(copies.sessions).toBe(2 * original.sessions);
    expect(copies.shapes).toEqual([...original.shapes, ...original.shapes].sort());
  });
});
