import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IndexWriter } from '../../spoke/search/index-writer';
import { openSearchDb } from '../../spoke/search/search-db';
import { ArchivedTail } from '../../spoke/transcripts/archived-tail';
import { FileTail } from '../../spoke/transcripts/tail';
import { assistant, line, prompt, say } from '../helpers/records';

// The search index reads each transcript from where it last stopped. A transcript Claude Code
// deleted is read from Loom's copy, which has no inode of its own: a search index built afresh
// from the copy alone must still resume there, or every later catch-up (a read of the session)
// would index its lines again.

const TEXT = line(prompt('p1', null, 'install archlinux')) + line(assistant('a1', 'p1', [say('archlinux is installed')], 'end_turn'));

let dir: string;
let db: Database.Database;
let path: string;
/** where the file is read from: Loom's copy, or the file on disk */
let from: 'copy' | 'disk';

const copy = {
  archivedTo: () => Buffer.byteLength(TEXT),
  async *pieces(_name: string, at = 0) {
    yield Buffer.from(TEXT).subarray(at);
  },
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-index-writer-'));
  path = join(dir, 'gone.jsonl');
  db = openSearchDb(join(dir, 'search.db'), () => {}).db;
  from = 'copy';
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const writer = () =>
  new IndexWriter(
    db,
    (p) => (from === 'copy' ? new ArchivedTail(p, 'gone.jsonl', copy) : new FileTail(p)),
    () => {},
  );
const rows = () => (db.prepare('SELECT COUNT(*) AS n FROM lines').get() as { n: number }).n;

describe("the search index's catch-up of a transcript read from Loom's copy", () => {
  it('indexes its lines once, however often it catches up', async () => {
    await writer().catchUp(path);
    expect(rows()).toBe(2);
    await writer().catchUp(path);
    await writer().catchUp(path);
    expect(rows()).toBe(2);
  });

  it('indexes the file again from its start, once, when it is back on disk', async () => {
    await writer().catchUp(path);
    from = 'disk';
    writeFileSync(path, TEXT + line(prompt('p2', 'a1', 'and archlinux again')));
    await writer().catchUp(path);
    expect(rows()).toBe(3);
    await writer().catchUp(path);
    expect(rows()).toBe(3);
  });
});
