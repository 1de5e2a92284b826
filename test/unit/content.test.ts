import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../spoke/model/source';
import type { AtomMeta } from '../../spoke/model/types';
import { loadAtoms, toBlocks } from '../../spoke/transcripts/content';
import { line, prompt } from '../helpers/records';

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

  it('turns string content into a text block and keeps unknown blocks whole', () => {
    expect(toBlocks('plain')).toEqual([{ type: 'text', text: 'plain' }]);
    expect(
      toBlocks([
        { type: 'tool_result', tool_use_id: 't1', content: 'ok', is_error: true },
        { type: 'server_tool_use', id: 'x' },
      ]),
    ).toEqual([
      { type: 'tool_result', toolUseId: 't1', toolName: null, content: 'ok', isError: true, images: [] },
      { type: 'opaque', blockType: 'server_tool_use', raw: { type: 'server_tool_use', id: 'x' } },
    ]);
  });
});
