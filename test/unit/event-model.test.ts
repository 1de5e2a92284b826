import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalSource } from '../../spoke/source';
import { assistant, line, progress, prompt, say, system, toolResult, toolUse } from '../helpers/records';

// Shapes the real fixtures do not all have, written as small transcripts and read by a real
// LocalSource.

let root: string;
let source: LocalSource | null = null;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-model-'));
  mkdirSync(join(root, '-home-dev-demo'));
});
afterEach(async () => {
  await source?.stop();
  source = null;
  rmSync(root, { recursive: true, force: true });
});

async function index(records: unknown[], extraLines: string[] = []) {
  writeFileSync(join(root, '-home-dev-demo', 's1.jsonl'), records.map(line).join('') + extraLines.join(''));
  source = new LocalSource({ projectsRoot: root, host: 'h' });
  await source.start();
  const turns = await source.turns('h', 's1');
  return { session: source.session('h', 's1')!, turns, uuids: turns.flatMap((t) => t.atoms.map((a) => a.uuid)) };
}

describe('the active path', () => {
  it('stitches a compact boundary to the preserved tail when its logical parent was never written', async () => {
    const { uuids } = await index([
      prompt('p1', null, 'build it'),
      assistant('a1', 'p1', [say('done')], 'end_turn'),
      prompt('p2', 'a1', 'more'),
      assistant('a2', 'p2', [say('ok')], 'end_turn'),
      prompt('side', 'a1', 'a branch written later in the file'),
      system('cb', null, 'compact_boundary', {
        logicalParentUuid: 'never-written',
        compactMetadata: { trigger: 'auto', preTokens: 1, preservedSegment: { tailUuid: 'a2' } },
      }),
      prompt('p3', 'cb', 'after compaction'),
    ]);
    expect(uuids).toEqual(['p1', 'a1', 'p2', 'a2', 'cb', 'p3']);
  });

  it('stitches to the last main-chain message before the boundary when nothing else resolves', async () => {
    const { uuids } = await index([
      prompt('p1', null, 'build it'),
      assistant('a1', 'p1', [say('done')], 'end_turn'),
      system('cb', null, 'compact_boundary', { logicalParentUuid: 'never-written', compactMetadata: { trigger: 'auto', preTokens: 1 } }),
      prompt('p2', 'cb', 'after compaction'),
    ]);
    expect(uuids).toEqual(['p1', 'a1', 'cb', 'p2']);
  });

  it('walks through progress lines and drops a rewound branch', async () => {
    const { uuids, session } = await index([
      prompt('p1', null, 'first'),
      progress('g1', 'p1'),
      assistant('a1', 'g1', [say('one')], 'end_turn'),
      prompt('p2', 'a1', 'second, later rewound'),
      assistant('a2', 'p2', [say('two')], 'end_turn'),
      prompt('p3', 'a1', 'second, as retried'),
      assistant('a3', 'p3', [say('three')], 'end_turn'),
    ]);
    expect(uuids).toEqual(['p1', 'a1', 'p3', 'a3']);
    expect(session.atomCount).toBe(4);
  });

  it('keeps the chain before /clear, which starts a chain with no parent, behind a divider', async () => {
    const { uuids } = await index([
      prompt('p1', null, 'old work'),
      assistant('a1', 'p1', [say('one')], 'end_turn'),
      prompt('p2', null, 'fresh start'),
      assistant('a2', 'p2', [say('two')], 'end_turn'),
    ]);
    expect(uuids).toEqual(['p1', 'a1', 'new_chain-p2', 'p2', 'a2']);
  });
});

describe('turns and segments', () => {
  it('keeps a prompt typed mid-turn inside the turn, as the start of a new segment', async () => {
    const { turns } = await index([
      prompt('p1', null, 'fix the bug'),
      assistant('a1', 'p1', [toolUse('t1')], 'tool_use'),
      toolResult('r1', 'a1', 't1'),
      prompt('mid', 'r1', 'also check the tests'),
      { ...prompt('q1', 'mid', ''), type: 'attachment', message: undefined, attachment: { type: 'queued_command', prompt: 'and the docs' } },
      assistant('a2', 'q1', [say('all done')], 'end_turn'),
      prompt('p2', 'a2', 'thanks'),
    ]);
    expect(turns.map((t) => t.trigger?.uuid)).toEqual(['p1', 'p2']);
    expect(turns[0].atoms.map((a) => a.uuid)).toEqual(['p1', 'a1', 'r1', 'mid', 'q1', 'a2']);
    expect(turns[0].segments.map((s) => s.input?.uuid)).toEqual(['p1', 'mid', 'q1']);
    expect(turns[0].ended).toBe(true);
  });

  it('opens a turn after a structurally finished one even without end_turn on disk', async () => {
    const { turns } = await index([
      prompt('p1', null, 'one'),
      assistant('a1', 'p1', [say('streamed reply')]),
      prompt('p2', 'a1', 'two'),
      assistant('a2', 'p2', [toolUse('t1')], 'tool_use'),
    ]);
    expect(turns.map((t) => [t.trigger?.uuid, t.ended])).toEqual([
      ['p1', true],
      ['p2', false],
    ]);
  });

  it('ends a turn the user interrupted, and never lets harness notices open one', async () => {
    const { turns } = await index([
      prompt('p1', null, 'long job'),
      assistant('a1', 'p1', [toolUse('t1')], 'tool_use'),
      prompt('i1', 'a1', '[Request interrupted by user for tool use]'),
      prompt('n1', 'i1', '<task-notification>\n<task-id>x</task-id></task-notification>'),
      prompt('p2', 'n1', 'next'),
    ]);
    expect(turns.map((t) => [t.trigger?.uuid, t.interrupted])).toEqual([
      ['p1', true],
      ['p2', false],
    ]);
    expect(turns[0].atoms.map((a) => a.uuid)).toEqual(['p1', 'a1', 'i1', 'n1']);
  });
});

describe('bad and unknown input', () => {
  it('skips a line that is not JSON with a ParseError naming file, line and byte offset', async () => {
    const good = line(prompt('p1', null, 'hello'));
    const { session, uuids } = await index([], [good, '{"type":"user", this is not json\n', line(assistant('a1', 'p1', [say('hi')]))]);
    expect(uuids).toEqual(['p1', 'a1']);
    expect(session.parseErrors).toEqual([
      expect.objectContaining({ file: join(root, '-home-dev-demo', 's1.jsonl'), line: 2, offset: Buffer.byteLength(good) }),
    ]);
    expect(session.parseErrors[0].reason).toMatch(/not JSON/);
  });

  it('keeps unknown record types out of the path without breaking it, and unknown blocks as opaque', async () => {
    await index([
      prompt('p1', null, 'hello'),
      { type: 'future-record', uuid: 'f1', parentUuid: 'p1', payload: 1 },
      assistant('a1', 'f1', [{ type: 'hologram', beam: 3 }, say('hi')], 'end_turn'),
    ]);
    const turns = await source!.turns('h', 's1');
    expect(turns[0].atoms.map((a) => a.uuid)).toEqual(['p1', 'a1']);
    const [content] = await source!.content('h', 's1', [turns[0].atoms[1]]);
    expect(content).toEqual([
      { type: 'opaque', blockType: 'hologram', raw: { type: 'hologram', beam: 3 } },
      { type: 'text', text: 'hi' },
    ]);
  });
});
