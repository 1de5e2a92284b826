import { describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import type { TranscriptPlace } from '../../spoke/transcripts/paths';
import { parseLine } from '../../spoke/transcripts/record';
import type { TranscriptSession } from '../../spoke/transcripts/session';
import { assistant, prompt, readerLine, say } from '../helpers/records';

// What readers see of a session while its files are read again to wake it: the facts it had
// asleep (usage, models, directory, branch, title) until the wake is done, not the part read so far.

type Rec = Record<string, unknown>;

const main = (key: string): TranscriptPlace => ({ project: 'p', sessionKey: key, fsid: key, role: 'main' });

function addLines(session: TranscriptSession, file: string, records: Rec[]): void {
  let offset = 0;
  records.forEach((record, i) => {
    const line = readerLine(JSON.stringify(record), i + 1, offset);
    offset += line.length + 1;
    const parsed = parseLine(line, file, { fsid: file, role: 'main' });
    if (parsed && typeof parsed !== 'string' && parsed.kind === 'graph') session.addRecord(parsed);
  });
}

const lines = [
  prompt('p1', null, 'go'),
  assistant('a1', 'p1', [say('one')], 'end_turn', 'msg-1'),
  prompt('p2', 'a1', 'again'),
  assistant('a2', 'p2', [say('two')], 'end_turn', 'msg-2'),
];
const messages = (session: TranscriptSession) => [...session.usage.entries()].length;

function asleep(): TranscriptSession {
  const catalog = new SessionCatalog('h');
  catalog.openFile('/p/s.jsonl', main('s'), false);
  const session = catalog.get('s')!;
  addLines(session, '/p/s.jsonl', lines);
  session.sleep('go');
  return session;
}

describe('a session waking', () => {
  it('shows the usage it had asleep until its files are read again, then what they gave', () => {
    const session = asleep();
    expect(messages(session)).toBe(2);
    session.beginWaking();
    addLines(session, '/p/s.jsonl', lines.slice(0, 2));
    expect(messages(session)).toBe(2);
    addLines(session, '/p/s.jsonl', lines.slice(2));
    session.endWaking(true);
    expect(messages(session)).toBe(2);
    expect(session.sleeping).toBeNull();
  });

  it('stays asleep with what it had when reading its files failed part way', () => {
    const session = asleep();
    session.beginWaking();
    addLines(session, '/p/s.jsonl', lines.slice(0, 2));
    session.endWaking(false);
    expect(messages(session)).toBe(2);
    expect(session.sleeping).toMatchObject({ atomCount: 4 });
    expect(session.atomCount()).toBe(4);
  });

  it('keeps the directory, branch and title it settled on while the lines that set older ones are read again', () => {
    const moved = [prompt('p1', null, 'go', { cwd: '/src/old', gitBranch: 'old' }), prompt('p2', 'p1', 'on', { cwd: '/src/new', gitBranch: 'new' })];
    const catalog = new SessionCatalog('h');
    catalog.openFile('/p/s.jsonl', main('s'), false);
    const session = catalog.get('s')!;
    addLines(session, '/p/s.jsonl', moved);
    session.addTitle({ kind: 'title', title: 'first name', custom: true });
    session.addTitle({ kind: 'title', title: 'second name', custom: true });
    session.sleep('go');
    session.beginWaking();
    addLines(session, '/p/s.jsonl', moved.slice(0, 1));
    session.addTitle({ kind: 'title', title: 'first name', custom: true });
    expect(session).toMatchObject({ cwd: '/src/new', gitBranch: 'new', customTitle: 'second name' });
    addLines(session, '/p/s.jsonl', moved.slice(1));
    session.addTitle({ kind: 'title', title: 'second name', custom: true });
    session.endWaking(true);
    expect(session).toMatchObject({ cwd: '/src/new', gitBranch: 'new', customTitle: 'second name', sleeping: null });
  });
});
