import type Database from 'better-sqlite3';
import { jsonOrNull } from '../model/json';
import type { FileTail } from '../transcripts/tail';
import { type LineFacts, lineFacts } from './searchable-text';

// Brings one transcript's rows in the index up to the file's end: reads only the bytes after what
// was indexed, and commits the lines with the file's new offset in one transaction, so a crash
// leaves the file either before or after a batch, never half in.

/** Lines per transaction: the batch, not the corpus, sets the memory used while indexing. */
const BATCH_LINES = 500;
/** …or this much text, whichever comes first. */
const BATCH_CHARS = 1 << 20;
/** A longer line (a giant tool output) is not searched: parsing it whole would take the writer's heap. */
export const LINE_LIMIT = 16 << 20;

interface FileRow {
  id: number;
  indexed_to: number;
  lines: number;
  ino: number;
  dir: string | null;
}

/** A line waiting for its batch: its place and facts, never its text (a batch would hold every line whole). */
type Pending = { offset: number; length: number; facts: LineFacts };

export class IndexWriter {
  private readonly fileRow: Database.Statement<[string], FileRow>;
  private readonly addFile: Database.Statement<[string]>;
  private readonly saveFile: Database.Statement<[number, number, number, string | null, number]>;
  private readonly addLine: Database.Statement<[number, number, number, number, string]>;
  private readonly addText: Database.Statement<[number | bigint, string, string, string, string, string]>;
  private readonly addCall: Database.Statement<[string, string]>;
  private readonly callName: Database.Statement<[string], { name: string }>;
  private readonly dropText: Database.Statement<[number]>;
  private readonly dropLines: Database.Statement<[number]>;

  constructor(
    private readonly db: Database.Database,
    /** a reader of the file's lines: the file, or Loom's copy once it is deleted */
    private readonly tailOf: (path: string) => FileTail,
    private readonly log: (message: string) => void,
  ) {
    this.fileRow = db.prepare('SELECT id, indexed_to, lines, ino, dir FROM files WHERE path = ?');
    this.addFile = db.prepare('INSERT INTO files(path) VALUES(?) ON CONFLICT(path) DO NOTHING');
    this.saveFile = db.prepare('UPDATE files SET indexed_to = ?, lines = ?, ino = ?, dir = ? WHERE id = ?');
    this.addLine = db.prepare('INSERT INTO lines(file_id, offset, length, t, uuid) VALUES(?, ?, ?, ?, ?)');
    this.addText = db.prepare('INSERT INTO fts(rowid, text, thinking, tools, input, output) VALUES(?, ?, ?, ?, ?, ?)');
    this.addCall = db.prepare('INSERT OR IGNORE INTO calls(id, name) VALUES(?, ?)');
    this.callName = db.prepare('SELECT name FROM calls WHERE id = ?');
    this.dropText = db.prepare('DELETE FROM fts WHERE rowid IN (SELECT id FROM lines WHERE file_id = ?)');
    this.dropLines = db.prepare('DELETE FROM lines WHERE file_id = ?');
  }

  /** The name of the tool a call id named, as far as the index knows. */
  toolName(id: string): string | null {
    return this.callName.get(id)?.name ?? null;
  }

  /** Indexes the complete lines a file gained since last time; resolves with the bytes read. */
  async catchUp(path: string): Promise<number> {
    this.addFile.run(path);
    let row = this.fileRow.get(path)!;
    const tail = this.tailOf(path);
    // indexed before: from the file (its inode kept) or from Loom's copy alone (which has none, so 0;
    // the file back on disk then reads as replaced and is indexed again from its start)
    if (row.ino !== 0 || row.indexed_to > 0) tail.resume({ offset: row.indexed_to, lines: row.lines, ino: row.ino });
    const before = tail.offset;
    // calls made earlier in this read: a result's tool is named without asking the database
    const recentCalls = new Map<string, string>();
    const toolOf = (id: string) => recentCalls.get(id) ?? this.toolName(id);
    let pending: Pending[] = [];
    let chars = 0;
    let dir = row.dir;
    let tooLong = 0;
    const flush = (offset: number, lines: number, ino: number) => {
      const batch = pending;
      pending = [];
      chars = 0;
      this.db.transaction(() => {
        for (const { offset, length, facts } of batch) {
          for (const [id, name] of facts.calls) this.addCall.run(id, name);
          const s = facts.searchable;
          if (!s) continue;
          const { lastInsertRowid } = this.addLine.run(row.id, offset, length, facts.t, facts.uuid);
          this.addText.run(lastInsertRowid, s.text, s.thinking, s.tools, s.input, s.output);
        }
        this.saveFile.run(offset, lines, ino, dir, row.id);
      })();
    };
    const outcome = await tail.read({
      restart: () => {
        // the file was replaced or cut short: what it said before is no longer there
        this.db.transaction(() => {
          this.dropText.run(row.id);
          this.dropLines.run(row.id);
          this.saveFile.run(0, 0, 0, null, row.id);
        })();
        row = this.fileRow.get(path)!;
        pending = [];
        dir = null;
      },
      line: (line) => {
        if (line.length > LINE_LIMIT) {
          tooLong++;
          return;
        }
        const facts = lineFacts(jsonOrNull(line.text), toolOf);
        if (!facts) return;
        dir ??= facts.cwd;
        for (const [id, name] of facts.calls) recentCalls.set(id, name);
        pending.push({ offset: line.offset, length: line.length, facts });
        const s = facts.searchable;
        if (s) chars += s.text.length + s.thinking.length + s.input.length + s.output.length;
        // the batch ends at the line before the next: its end is this line's end
        if (pending.length >= BATCH_LINES || chars >= BATCH_CHARS) flush(line.offset + line.length + 1, line.number, tail.state()?.ino ?? row.ino);
      },
    });
    if (outcome === 'missing') return 0;
    if (tooLong > 0) this.log(`search skips ${tooLong} line(s) of ${path} longer than ${LINE_LIMIT >> 20} MB`);
    // a copy has no inode of its own: it keeps the one its file had
    const ino = tail.state()?.ino ?? row.ino;
    if (pending.length > 0 || tail.offset !== row.indexed_to || ino !== row.ino) flush(tail.offset, tail.lines, ino);
    return Math.max(0, tail.offset - before);
  }
}
