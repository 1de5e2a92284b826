import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptPlace } from '../../spoke/transcripts/paths';
import { indexProject, type ProjectWork } from '../../spoke/transcripts/project-index';
import { assistant, line, prompt, say } from '../helpers/records';

// A `loom run` session spans Claude Code files: each resume writes a new one, under the same Loom
// key. An index worker's catalog puts each session to sleep once it is read, and cannot wake
// one; so a session with a file still to come in the worker's portion stays awake until that
// file is read, whatever is read between them.

let dir: string;
const place = (fsid: string, sessionKey: string): TranscriptPlace => ({ project: 'p', sessionKey, fsid, role: 'main' });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-worker-session-files-'));
  writeFileSync(join(dir, 'first.jsonl'), line(prompt('a1', null, 'start the port')) + line(assistant('a2', 'a1', [say('started')], 'end_turn')));
  // the resume continues the first file's chain
  writeFileSync(
    join(dir, 'second.jsonl'),
    line(prompt('b1', 'a2', 'finish the port')) +
      line(assistant('b2', 'b1', [say('done')], 'end_turn')) +
      line(prompt('b3', 'b2', 'and test it')) +
      line(assistant('b4', 'b3', [say('tested')], 'end_turn')),
  );
  for (const other of ['x', 'y']) writeFileSync(join(dir, `${other}.jsonl`), line(prompt(`${other}1`, null, `task ${other}`)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const work = (order: [string, string][]): ProjectWork => ({
  project: 'p',
  files: order.map(([fsid, key]) => ({ path: join(dir, `${fsid}.jsonl`), place: place(fsid, key) })),
  summaries: [],
  awakeLimit: 64,
  cut: false,
});

async function factsOfRun(order: [string, string][]) {
  const { sessions } = await indexProject(work(order));
  return sessions.find((s) => s.key === 'run')!.facts;
}

describe('a session whose files an index worker reads apart', () => {
  it('is handed back with every file in it, as when its files are read one after the other', async () => {
    const together = await factsOfRun([
      ['first', 'run'],
      ['second', 'run'],
      ['x', 'x'],
      ['y', 'y'],
    ]);
    const apart = await factsOfRun([
      ['first', 'run'],
      ['x', 'x'],
      ['y', 'y'],
      ['second', 'run'],
    ]);
    expect(together).toMatchObject({ atomCount: 6, turnCount: 3, name: 'start the port', leaf: 'b4' });
    expect(apart).toMatchObject({ atomCount: 6, turnCount: 3, name: 'start the port', leaf: 'b4' });
  });
});
