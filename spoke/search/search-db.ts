import { existsSync, renameSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';

// The search index on disk (<state>/search.db): SQLite FTS5, contentless (snippets are made from
// the transcript's own bytes), with each indexed line's place. A file whose version is not this
// code's, or that SQLite cannot read, is set aside and built again from the transcripts.

/** Moves when the schema, the tokenizer or what is extracted from a line changes. */
const VERSION = '1';

const SCHEMA = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
CREATE TABLE files(
  id INTEGER PRIMARY KEY,
  path TEXT NOT NULL UNIQUE,
  dir TEXT,
  indexed_to INTEGER NOT NULL DEFAULT 0,
  lines INTEGER NOT NULL DEFAULT 0,
  ino INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE lines(
  id INTEGER PRIMARY KEY,
  file_id INTEGER NOT NULL,
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  t INTEGER NOT NULL,
  uuid TEXT NOT NULL
);
CREATE INDEX lines_file ON lines(file_id);
CREATE TABLE calls(id TEXT PRIMARY KEY, name TEXT NOT NULL) WITHOUT ROWID;
CREATE VIRTUAL TABLE fts USING fts5(
  text, thinking, tools, input, output,
  content = '', contentless_delete = 1,
  tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO fts(fts, rank) VALUES('rank', 'bm25(2.0, 1.0, 1.0, 1.5, 1.0)');
`;

/** Opens the index, creating it (or building it again) when it is missing, old or unreadable. */
export function openSearchDb(path: string, log: (message: string) => void): { db: Database.Database; fresh: boolean } {
  if (existsSync(path)) {
    try {
      const db = connectSearchDb(path);
      const version = db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'version'").get();
      if (version?.value === VERSION) return { db, fresh: false };
      db.close();
      log(`the search index ${path} is from another version of Loom; building it again from the transcripts`);
    } catch (err) {
      log(`the search index ${path} cannot be read (${(err as Error).message}); it is set aside and built again from the transcripts`);
      setAside(path);
    }
    removeDb(path);
  }
  const db = connectSearchDb(path);
  db.exec(SCHEMA);
  db.prepare("INSERT INTO meta(key, value) VALUES('version', ?)").run(VERSION);
  return { db, fresh: true };
}

/** A connection to an index that exists (the writer thread's own). */
export function connectSearchDb(path: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  // 16 MB of page cache: a quarter of the latency of 2 MB for ~12 MB more resident (docs/performance.md)
  db.pragma('cache_size = -16000');
  // mapped pages count in the kernel's resident memory and bought no speed
  db.pragma('mmap_size = 0');
  return db;
}

function setAside(path: string): void {
  try {
    renameSync(path, `${path}.unreadable-${Date.now()}`);
  } catch {
    // removed below instead
  }
}

function removeDb(path: string): void {
  for (const suffix of ['', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}
