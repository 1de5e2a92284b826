import { describe, expect, it } from 'vitest';
import { SessionCatalog } from '../../spoke/transcripts/catalog';
import type { TranscriptPlace } from '../../spoke/transcripts/paths';
import { prompt, readerLine } from '../helpers/records';

// While the first index reads every file, each session falls asleep as soon as it is read,
// whatever the awake limit, with the facts it would have had awake; but never one a caller has
// just woken, nor one with a file still being read.

const place = (key: string): TranscriptPlace => ({ project: 'p', sessionKey: key, fsid: key, role: 'main' });

function catalogOf(sessions: number): SessionCatalog {
  const catalog = new SessionCatalog('h', 64);
  for (let i = 0; i < sessions; i++) {
    const key = `s${i}`;
    const ingest = catalog.openFile(`/p/${key}.jsonl`, place(key), false);
    ingest.line(readerLine(JSON.stringify(prompt(`${key}-a`, null, `task ${i}`))));
    ingest.line(readerLine(JSON.stringify(prompt(`${key}-b`, `${key}-a`, 'more')), 2, 100));
  }
  return catalog;
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

  it('keeps the awake limit itself once the first index is done', () => {
    const catalog = catalogOf(6);
    catalog.trim();
    expect(awake(catalog)).toHaveLength(6);
  });
});
