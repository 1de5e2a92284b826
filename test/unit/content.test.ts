import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../spoke/model/source';
import type { AtomMeta } from '../../spoke/model/types';
import { loadAtoms, toBlocks } from '../../spoke/transcripts/content';
import { assistant, line, prompt, toolResult, toolUse } from '../helpers/records';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-content-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const meta = (file: string, uuid: string, length: number): AtomMeta => ({ uuid, file, fsid: 's', offset: 0, length, sequence: 1, type: 'user' }) as AtomMeta;

describe('loading atom content', () => {
  it('reads a line back by its byte range', async () => {
    const file = join(dir, 's.jsonl');
    const text = line(prompt('u1', null, 'héllo'));
    writeFileSync(file, text);
    const [atom] = await loadAtoms([meta(file, 'u1', Buffer.byteLength(text) - 1)]);
    expect(atom.content).toEqual([{ type: 'text', text: 'héllo' }]);
  });

  it('refuses with UNAVAILABLE when the file changed under the index instead of returning another line', async () => {
    const file = join(dir, 's.jsonl');
    const text = line(prompt('u1', null, 'first'));
    writeFileSync(file, text);
    writeFileSync(file, text.replace('u1', 'u2'));
    const load = loadAtoms([meta(file, 'u1', Buffer.byteLength(text) - 1)]);
    await expect(load).rejects.toBeInstanceOf(UnavailableError);
    await expect(load).rejects.toThrow(/changed under the index; it is being read again, ask again shortly/);
  });

  it('gives each tool call the working directory its line records', async () => {
    const file = join(dir, 's.jsonl');
    const text = line({ ...assistant('a1', null, [toolUse('t1')]), cwd: '/home/dev/demo/web' });
    writeFileSync(file, text);
    const [atom] = await loadAtoms([meta(file, 'a1', Buffer.byteLength(text) - 1)]);
    expect(atom.content).toEqual([{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' }, cwd: '/home/dev/demo/web' }]);
  });

  it("reads the subagent a Task result's line names, and none when the line holds two results", async () => {
    const file = join(dir, 's.jsonl');
    const lone = line({ ...toolResult('r1', 'a1', 't1', 'report'), toolUseResult: { status: 'completed', agentId: 'a4ca752' } });
    const results = ['t2', 't3'].map((id) => ({ type: 'tool_result', tool_use_id: id, content: 'ok' }));
    const both = line({ ...toolResult('r2', 'a1', 't2'), message: { role: 'user', content: results }, toolUseResult: { agentId: 'b1' } });
    writeFileSync(file, lone + both);
    const [first, second] = await loadAtoms([
      meta(file, 'r1', Buffer.byteLength(lone) - 1),
      { ...meta(file, 'r2', Buffer.byteLength(both) - 1), offset: Buffer.byteLength(lone) },
    ]);
    expect(first.content.map((b) => b.type === 'tool_result' && b.agentId)).toEqual(['a4ca752']);
    expect(second.content.map((b) => b.type === 'tool_result' && b.agentId)).toEqual([null, null]);
  });

  it('turns string content into a text block and keeps unknown blocks whole', () => {
    expect(toBlocks('plain')).toEqual([{ type: 'text', text: 'plain' }]);
    expect(
      toBlocks([
        { type: 'tool_result', tool_use_id: 't1', content: 'ok', is_error: true },
        { type: 'server_tool_use', id: 'x' },
      ]),
    ).toEqual([
      { type: 'tool_result', toolUseId: 't1', toolName: null, content: 'ok', isError: true, images: [], agentId: null, subagent: null },
      { type: 'opaque', blockType: 'server_tool_use', raw: { type: 'server_tool_use', id: 'x' } },
    ]);
  });
});
