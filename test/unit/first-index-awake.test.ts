import { describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import type { TranscriptPlace } from '../../spoke/transcripts/paths';
import { prompt, readerLine } from '../helpers/records';

// While the first index reads every file, each session falls asleep as soon as it is read,
// whatever the awake limit, with the facts it would have had awake; but never one a caller has
// just woken, nor one with a file still being read. A session woken again during that index
// (lines appended to it meanwhile) is in use: it stays awake within the awake limit, as after
// the index, rather than being read whole again at each append.

const place = (key: string): TranscriptPlace => ({ project: 'p', sessionKey: key, fsid: key, role: 'main' });

function catalogOf(sessions: number, awakeLimit = 64): SessionCatalog {
  const catalog = new SessionCatalog('h', awakeLimit);
  for (let i = 0; i < sessions; i++) readLines(catalog, `s${i}`, false);
  return catalog;
}

/** A session's lines, read as its file's first read or, `waking`, read again to wake it. */
function readLines(catalog: SessionCatalog, key: string, waking: boolean): void {
  const ingest = catalog.openFile(`/p/${key}.jsonl`, place(key), false, waking);
  ingest.line(readerLine(JSON.stringify(prompt(`${key}-a`, null, `task ${key.slice(1)}`))));
  ingest.line(readerLine(JSON.stringify(prompt(`${key}-b`, `${key}-a`, 'more')), 2, 100));
}

/** Wakes a sleeping session as the tracker does: its lines read again inside a wake. */
function wake(catalog: SessionCatalog, key: string): void {
  const session = catalog.get(key)!;
  catalog.beginWaking([session]);
  readLines(catalog, key, true);
  catalog.endWaking([session], true);
}

const awake = (catalog: SessionCatalog) => [...catalog.all()].filter((s) => !s.sleeping).map((s) => s.key);

describe('the awake limit during the first index', () => {
  it('puts every session read to sleep with its facts', () => {
    const catalog = catalogOf(6);
    catalog.trim([], true);
    expect(awake(catalog)).toEqual([]);
    expect(catalog.get('s0')!.sleeping).toMatchObject({ atomCount: 2, name: 'task 0' });
    expect(catalog.get('s5')!.sleeping).toMatchObject({ atomCount: 2, name: 'task 5' });
  });

  it('keeps awake a session just woken for a caller, and one its reader says stays awake', () => {
    const catalog = catalogOf(6);
    catalog.trim([catalog.get('s2')!], true, (session) => session.files.has('/p/s4.jsonl'));
    expect(awake(catalog)).toEqual(['s2', 's4']);
  });

  it('keeps awake a session woken again since, and the next read finds it awake', () => {
    const catalog = catalogOf(6);
    catalog.trim([], true);
    wake(catalog, 's3');
    catalog.trim([catalog.get('s3')!], true);
    // another file's read: before, it put s3 to sleep, and each append to s3 woke it again
    readLines(catalog, 's6', false);
    catalog.trim([], true);
    expect(awake(catalog)).toEqual(['s3']);
    expect(catalog.get('s3')!.atomCount()).toBe(2);
  });

  it('puts to sleep the least recently used of the sessions woken since, past the awake limit', () => {
    const catalog = catalogOf(6, 2);
    catalog.trim([], true);
    for (const key of ['s1', 's4', 's2']) wake(catalog, key);
    catalog.trim([], true);
    expect(awake(catalog).sort()).toEqual(['s2', 's4']);
  });

  it('keeps the awake limit itself once the first index is done', () => {
    const catalog = catalogOf(6);
    catalog.trim();
    expect(awake(catalog)).toHaveLength(6);
  });
});
