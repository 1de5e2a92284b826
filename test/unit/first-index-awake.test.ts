import { describe, expect, it } from 'vitest';
import { FIRST_INDEX_AWAKE, SessionCatalog } from '../../spoke/transcripts/catalog';
import type { TranscriptPlace } from '../../spoke/transcripts/paths';
import { prompt, readerLine } from '../helpers/records';

// While the first index reads every file, only the last few sessions read stay awake: the others
// sleep as soon as they are read, whatever the awake limit, and wake with the same path.

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
  it('keeps only the sessions read last awake, and puts the rest to sleep with their facts', () => {
    const catalog = catalogOf(6);
    catalog.trim([], true);
    expect(awake(catalog)).toEqual(['s0', 's1', 's2', 's3', 's4', 's5'].slice(-FIRST_INDEX_AWAKE));
    const s0 = catalog.get('s0')!;
    expect(s0.sleeping).toMatchObject({ atomCount: 2, name: 'task 0' });
  });

  it('keeps the awake limit itself once the first index is done', () => {
    const catalog = catalogOf(6);
    catalog.trim();
    expect(awake(catalog)).toHaveLength(6);
  });

  it('never keeps more awake than a lower awake limit asks', () => {
    const catalog = new SessionCatalog('h', 1);
    for (const key of ['a', 'b', 'c']) catalog.openFile(`/p/${key}.jsonl`, place(key), false).line(readerLine(JSON.stringify(prompt(`${key}-1`, null, key))));
    catalog.trim([], true);
    expect(awake(catalog)).toEqual(['c']);
  });
});
