import { stat } from 'node:fs/promises';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { jsonOrNull } from '../model/json';
import type { SearchFilter, SearchProgress } from '../model/search';
import type { ArchiveLines } from '../transcripts/archived-tail';
import { fullMatch, type ParsedQuery, wordsMatch } from './query-language';
import { openSearchDb } from './search-db';
import { lineFacts } from './searchable-text';
import { type Snippet, SnippetMaker } from './snippets';
import { WriterThread } from './writer-thread';

// The search index of one kernel: built for the history there was in one background pass after
// the first index (oldest files first, so newer lines get larger row ids), then kept current as
// files grow. A file that grows while the pass runs goes before the pass's next file. Lines are
// parsed and written on a thread of their own (writer-thread.ts); queries run here.

export interface SearchIndexOptions {
  /** the index's file: <state>/search.db */
  file: string;
  log(message: string): void;
  /** bytes of a transcript, by the range the index kept */
  readRange(path: string, offset: number, length: number): Promise<Buffer>;
  /** the archive name of a file read from Loom's copy (gone from disk); null while it is on disk */
  copyName?(path: string): string | null;
  /** Loom's copies of deleted transcripts */
  archive?: ArchiveLines | null;
}

/** One line that matched, where it is. */
export interface IndexHit {
  path: string;
  offset: number;
  length: number;
  uuid: string;
  t: number;
}

/** Ranked by relevance over at most this many of the newest matches (all when filters leave fewer). */
const RANKED_NEWEST = 10_000;

export class SearchIndex {
  readonly progress: SearchProgress = { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, done: false };
  private readonly db: Database.Database;
  private readonly writer: WriterThread;
  private readonly callName: Database.Statement<[string], { name: string }>;
  private readonly snippetMaker = new SnippetMaker();
  private readonly statements = new Map<string, Database.Statement>();
  /** files that grew: indexed before the pass goes on */
  private readonly grown = new Set<string>();
  /** the background pass's files still to index, oldest first */
  private passQueue: string[] = [];
  /** files of the pass whose size was not known (gone from disk): their bytes are counted as read */
  private readonly unsized = new Set<string>();
  private passStarted = false;
  private running: Promise<void> | null = null;
  private closed = false;
  /** built from nothing: said once its pass starts (a kernel refusing to start says only why) */
  private readonly fresh: boolean;

  constructor(private readonly options: SearchIndexOptions) {
    const { db, fresh } = openSearchDb(options.file, options.log);
    this.fresh = fresh;
    this.db = db;
    this.writer = new WriterThread({ file: options.file, log: options.log, copyName: options.copyName ?? (() => null), archive: options.archive ?? null });
    this.callName = db.prepare('SELECT name FROM calls WHERE id = ?');
  }

  /** The first index is done: every file's missing lines are indexed, oldest file first. */
  async startPass(paths: string[]): Promise<void> {
    // a file gone from disk (read from Loom's copy) goes first, as the oldest; its size is counted once read
    const files = await Promise.all(paths.map(async (path) => ({ path, info: (await stat(path).catch(() => null)) ?? { mtimeMs: 0, size: 0 } })));
    const todo = files.sort((a, b) => a.info.mtimeMs - b.info.mtimeMs);
    this.progress.filesTotal = todo.length;
    this.progress.bytesTotal = todo.reduce((sum, f) => sum + f.info.size, 0);
    for (const f of todo) if (f.info.size === 0) this.unsized.add(f.path);
    this.passQueue = todo.map((f) => f.path);
    this.passStarted = true;
    if (this.fresh) this.options.log(`building the search index ${this.options.file} in the background`);
    this.kick();
  }

  /** A transcript gained lines (or appeared); ignored until the pass has started, which reads everything. */
  changed(path: string): void {
    if (!this.passStarted || this.closed) return;
    this.grown.add(path);
    this.kick();
  }

  /** Resolves when nothing is waiting to be indexed (for tests and benches). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running;
    await this.writer.close();
    this.db.close();
  }

  /** The ranked lines matching a query, `first` of them after `offset`, and whether more follow. */
  find(q: ParsedQuery, filter: SearchFilter, first: number, offset: number): { hits: IndexHit[]; more: boolean } {
    const match = fullMatch(q, filter.tool ?? null);
    if (!match) return { hits: [], more: false };
    const where: string[] = ['fts MATCH @match'];
    const params: Record<string, unknown> = { match, limit: BigInt(first + 1), offset: BigInt(offset) };
    if (filter.since != null) {
      where.push('l.t >= @since');
      params.since = BigInt(filter.since);
    }
    if (filter.until != null) {
      where.push('l.t < @until');
      params.until = BigInt(filter.until);
    }
    if (filter.dir) {
      const dir = filter.dir.replace(/\/+$/, '') || '/';
      where.push("(f.dir = @dir OR f.dir LIKE @below ESCAPE '\\')");
      params.dir = dir;
      params.below = `${dir === '/' ? '' : dir.replace(/[\\%_]/g, (c) => `\\${c}`)}/%`;
    }
    const ranked = (bound: bigint | null) =>
      this.prepared<IndexHit>(
        `SELECT f.path AS path, l.offset AS offset, l.length AS length, l.uuid AS uuid, l.t AS t
           FROM fts JOIN lines l ON l.id = fts.rowid JOIN files f ON f.id = l.file_id
           WHERE ${[...where, ...(bound === null ? [] : ['fts.rowid >= @bound'])].join(' AND ')}
           ORDER BY rank, fts.rowid DESC LIMIT @limit OFFSET @offset`,
      ).all(bound === null ? params : { ...params, bound });
    // bm25 over every match of a common word is slow; the newest ten thousand hold what people look for
    const bound = this.prepared<{ rowid: number | bigint }>('SELECT rowid FROM fts WHERE fts MATCH @match ORDER BY rowid DESC LIMIT 1 OFFSET @skip').get({
      match,
      skip: BigInt(RANKED_NEWEST - 1),
    });
    let rows = bound ? ranked(BigInt(bound.rowid)) : ranked(null);
    // filters may leave too few of the newest: rank them all
    if (bound && rows.length <= first) rows = ranked(null);
    return { hits: rows.slice(0, first), more: rows.length > first };
  }

  /** A snippet for each hit, cut from its line as the transcript holds it now. */
  async snippets(hits: IndexHit[], q: ParsedQuery): Promise<((Snippet & { type: 'user' | 'assistant' }) | null)[]> {
    const lines = await Promise.all(
      hits.map(async (h) => {
        const bytes = await this.options.readRange(h.path, h.offset, h.length).catch(() => null);
        const facts = bytes && lineFacts(jsonOrNull(bytes.toString('utf8')), (id) => this.callName.get(id)?.name ?? null);
        // a line that is not what the index says (the file was rewritten) has no snippet
        return facts && facts.uuid === h.uuid ? facts : null;
      }),
    );
    const words = q.phrases.flatMap((p) => p.tokens);
    const made = this.snippetMaker.make(
      lines.map((l) => l?.searchable ?? null),
      wordsMatch(q),
      words,
    );
    return made.map((s, i) => {
      const line = lines[i];
      return line ? { ...s, type: line.type } : null;
    });
  }

  /** A query's statement, compiled once per text (the filters make a handful of texts). */
  private prepared<Row>(sql: string): Database.Statement<Record<string, unknown>, Row> {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement as Database.Statement<Record<string, unknown>, Row>;
  }

  private kick(): void {
    if (this.running || this.closed) return;
    this.running = this.drain().finally(() => {
      this.running = null;
    });
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      const fromPass = this.grown.size === 0;
      const path = fromPass ? this.passQueue.shift() : this.takeGrown();
      if (path === undefined) break;
      try {
        const read = await this.writer.catchUp(path);
        if (fromPass) this.progress.bytesDone += read;
        if (fromPass && this.unsized.delete(path)) this.progress.bytesTotal += read;
      } catch (err) {
        this.options.log(`could not index ${path} for search: ${(err as Error).message}`);
      }
      if (fromPass) this.progress.filesDone++;
      await yieldToEvents();
    }
    if (this.passStarted && this.passQueue.length === 0) this.progress.done = true;
  }

  private takeGrown(): string {
    const path = this.grown.values().next().value!;
    this.grown.delete(path);
    return path;
  }
}
