import { describe, expect, it } from 'vitest';
import { parseLine } from '../../spoke/transcripts/record';
import { TranscriptSession } from '../../spoke/transcripts/session';
import { assistant, progress, prompt, readerLine, say } from '../helpers/records';

// Edges of the active path found in review, fed to one TranscriptSession line by line as the
// tracker feeds it, then read again from scratch (a replay) to check both readings agree.

type Rec = Record<string, unknown>;

/** Feeds one file's lines to the session, one at a time. */
function addLines(session: TranscriptSession, file: string, records: Rec[]): void {
  session.addFile(file, file, 'main');
  let offset = 0;
  records.forEach((record, i) => {
    const line = readerLine(JSON.stringify(record), i + 1, offset);
    const parsed = parseLine(line, file, { fsid: file, role: 'main' });
    offset += line.length + 1;
    if (parsed && typeof parsed !== 'string' && parsed.kind === 'graph') session.addRecord(parsed);
  });
}

function feed(files: [string, Rec[]][]): TranscriptSession {
  const session = new TranscriptSession('k', 'p');
  for (const [file, records] of files) addLines(session, file, records);
  return session;
}

const uuids = (session: TranscriptSession) => session.activePath().map((a) => a.uuid);
const branches = (session: TranscriptSession) => session.rewoundBranches().map((b) => ({ forkedFrom: b.forkedFrom, atoms: b.atoms.map((a) => a.uuid) }));

/** The same session read again from scratch, as after a restart. */
function replayed(files: [string, Rec[]][]): TranscriptSession {
  const session = feed(files);
  session.restartFile('/none'); // marks the path stale: the next read replays every line
  return session;
}

/** A 1.0.x `--resume`: the old file, and the new one that starts with a copy of its lines. */
function resumed(): [Rec[], Rec[]] {
  const a = [prompt('p1', null, 'start'), assistant('a1', 'p1', [say('started')], 'end_turn')];
  return [a, [...a, prompt('p2', 'a1', 'finish'), assistant('a2', 'p2', [say('finished')], 'end_turn')]];
}

describe('edges of the active path', () => {
  it('reads a 1.0.x resume, whose new file starts with a copy of the old lines, as one history', () => {
    const [a, b] = resumed();
    const session = feed([
      ['/a.jsonl', a],
      ['/b.jsonl', b],
    ]);
    expect(uuids(session)).toEqual(['p1', 'a1', 'p2', 'a2']);
    expect(session.turns()).toHaveLength(2);
  });

  it('keeps the lines of a 1.0.x resume that the old file still holds when the new file, read first, is read again', () => {
    const [a, b] = resumed();
    // newest first, as the first index reads: the new file's copies are the lines held
    const session = feed([
      ['/b.jsonl', b],
      ['/a.jsonl', a],
    ]);
    session.restartFile('/b.jsonl');
    expect(uuids(session)).toEqual(['p1', 'a1']);
    addLines(session, '/b.jsonl', b.slice(0, 3));
    expect(uuids(session)).toEqual(['p1', 'a1', 'p2']);
  });

  it('keeps a resumed file its copies of the old lines, in the order written, when the old file is read again', () => {
    const [a, b] = resumed();
    const session = feed([
      ['/a.jsonl', a],
      ['/b.jsonl', b],
    ]);
    session.restartFile('/a.jsonl');
    expect(uuids(session)).toEqual(['p1', 'a1', 'p2', 'a2']);
    expect(session.turns()).toHaveLength(2);
  });

  it('continues the file read before when a second file of the session begins in the same millisecond', () => {
    const at = (record: Rec): Rec => ({ ...record, timestamp: '2026-01-01T10:00:00.000Z' });
    const first = [at(prompt('f1', null, 'one')), at(assistant('fa1', 'f1', [say('one')], 'end_turn'))];
    const second = [at(prompt('s1', null, 'two')), at(assistant('sa1', 's1', [say('two')], 'end_turn'))];
    const files: [string, Rec[]][] = [
      ['/first.jsonl', first],
      ['/second.jsonl', second],
    ];
    // tied starts go in the order read: the second file's fresh chain continues the first, as it
    // would a millisecond later, with no new chain between them
    expect(uuids(feed(files))).toEqual(['f1', 'fa1', 's1', 'sa1']);
    expect(uuids(replayed(files))).toEqual(['f1', 'fa1', 's1', 'sa1']);
  });

  it('reads the first prompt typed again off the same hook line as a rewind, not a new chain', () => {
    const lines = [
      progress('hook', null),
      prompt('p1', 'hook', 'first try'),
      prompt('int', 'p1', '[Request interrupted by user]'),
      prompt('p1b', 'hook', 'second try'),
      assistant('a1', 'p1b', [say('ok')], 'end_turn'),
    ];
    const live = feed([['/f.jsonl', lines]]);
    expect(uuids(live)).toEqual(['p1b', 'a1']);
    expect(branches(live)).toEqual([{ forkedFrom: null, atoms: ['p1', 'int'] }]);
    expect(live.generation).toBe(1);
    expect(uuids(replayed([['/f.jsonl', lines]]))).toEqual(['p1b', 'a1']);
  });

  it('places a line whose parent is written after it the same way live and on a replay', () => {
    const lines = [
      prompt('p1', null, 'go'),
      assistant('a1', 'p1', [say('one')], 'end_turn'),
      assistant('x', 'y', [say('written before its parent')]),
      prompt('y', 'a1', 'next'),
      assistant('a2', 'y', [say('two')], 'end_turn'),
    ];
    expect(uuids(replayed([['/f.jsonl', lines]]))).toEqual(uuids(feed([['/f.jsonl', lines]])));
  });

  it('reads a slash command the model answers as a prompt that can rewind', () => {
    const session = feed([
      [
        '/f.jsonl',
        [
          prompt('p1', null, 'go'),
          assistant('a1', 'p1', [say('one')], 'end_turn'),
          prompt('p2', 'a1', 'something else'),
          assistant('a2', 'p2', [say('two')], 'end_turn'),
          prompt('cmd', 'a1', '<command-message>review is running…</command-message>\n<command-name>/review</command-name>'),
          assistant('a3', 'cmd', [say('reviewed')], 'end_turn'),
        ],
      ],
    ]);
    expect(uuids(session)).toEqual(['p1', 'a1', 'cmd', 'a3']);
    expect(branches(session)).toEqual([{ forkedFrom: 'a1', atoms: ['p2', 'a2'] }]);
  });

  it('reads a queued task notification as the harness speaking, not as a prompt', () => {
    const notice = {
      ...prompt('n1', 'a1', ''),
      type: 'attachment',
      message: undefined,
      attachment: { type: 'queued_command', prompt: '<task-notification>\n<status>completed</status>\n</task-notification>', commandMode: 'task-notification' },
    };
    const session = feed([['/f.jsonl', [prompt('p1', null, 'go'), assistant('a1', 'p1', [say('one')], 'end_turn'), notice]]]);
    const atom = session.activePath().find((a) => a.uuid === 'n1')!;
    expect([atom.author, atom.promptLine]).toEqual([{ kind: 'system' }, null]);
  });

  it('keeps its generation when it falls asleep and wakes with nothing changed', () => {
    const lines = [prompt('p1', null, 'first'), assistant('a1', 'p1', [say('one')], 'end_turn'), prompt('p2', 'a1', 'rewound'), prompt('p3', 'a1', 'again')];
    const session = feed([['/f.jsonl', lines]]);
    expect(session.generation).toBe(1);
    session.sleep('name');
    session.beginWaking();
    addLines(session, '/f.jsonl', lines);
    session.endWaking(true);
    expect([uuids(session), session.generation]).toEqual([['p1', 'a1', 'p3'], 1]);
  });
});
