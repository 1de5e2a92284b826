import Database from 'better-sqlite3';
import type { SearchField, SnippetPart } from '../model/search';
import type { SearchableText } from './searchable-text';

// Snippets are cut from the hit lines themselves, read back from the transcript: the index keeps
// no text. The lines of one page go into a small in-memory FTS5 table with the index's own
// tokenizer, so what is highlighted is exactly what matched, stems and prefixes included.

const FIELDS: [keyof SearchableText, SearchField][] = [
  ['text', 'TEXT'],
  ['thinking', 'THINKING'],
  ['tools', 'TOOLS'],
  ['input', 'INPUT'],
  ['output', 'OUTPUT'],
];
const OPEN = '\u0002';
const CLOSE = '\u0003';
/** tokens around the hit */
const SNIPPET_TOKENS = 24;
/** a field longer than this is searched for its first hit and cut to a window around it */
const WINDOW = 8 * 1024;

export interface Snippet {
  field: SearchField;
  parts: SnippetPart[];
}

export class SnippetMaker {
  private readonly db = new Database(':memory:');
  private readonly insert: Database.Statement<[bigint, string, string, string, string, string]>;
  private readonly clear: Database.Statement<[]>;
  private readonly cut: Database.Statement<[string, bigint], Record<string, string | null>>;

  constructor() {
    this.db.exec("CREATE VIRTUAL TABLE s USING fts5(text, thinking, tools, input, output, tokenize = 'porter unicode61 remove_diacritics 2')");
    this.insert = this.db.prepare('INSERT INTO s(rowid, text, thinking, tools, input, output) VALUES(?, ?, ?, ?, ?, ?)');
    this.clear = this.db.prepare('DELETE FROM s');
    const columns = FIELDS.map((_, i) => `snippet(s, ${i}, '${OPEN}', '${CLOSE}', '…', ${SNIPPET_TOKENS}) AS c${i}`).join(', ');
    this.cut = this.db.prepare(`SELECT ${columns} FROM s WHERE s MATCH ? AND rowid = ?`);
  }

  /**
   * One snippet per line, in order: from the field with the most matched words (the first
   * field with any text when the words matched none, as for a search by tool alone).
   */
  make(lines: (SearchableText | null)[], match: string | null, words: string[]): Snippet[] {
    this.clear.run();
    lines.forEach((s, i) => {
      if (s) this.insert.run(BigInt(i + 1), windowed(s.text, words), windowed(s.thinking, words), s.tools, windowed(s.input, words), windowed(s.output, words));
    });
    return lines.map((s, i) => {
      // a rowid bound as a JS number is a REAL, which FTS5 ignores: every line would get the first's snippet
      const cuts = match && s ? this.cut.get(match, BigInt(i + 1)) : undefined;
      let best: Snippet | null = null;
      let bestHits = 0;
      for (let c = 0; c < FIELDS.length; c++) {
        const text = cuts?.[`c${c}`];
        const hits = text ? text.split(OPEN).length - 1 : 0;
        if (text && hits > bestHits) {
          best = { field: FIELDS[c][1], parts: partsOf(text) };
          bestHits = hits;
        }
      }
      return best ?? plain(s);
    });
  }
}

/** Marked text to parts: the marks say where each hit starts and ends. */
function partsOf(text: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const piece of text.split(OPEN)) {
    const close = piece.indexOf(CLOSE);
    if (close === -1) push(parts, piece, false);
    else {
      push(parts, piece.slice(0, close), true);
      push(parts, piece.slice(close + 1), false);
    }
  }
  return parts;
}

function push(parts: SnippetPart[], text: string, hit: boolean): void {
  if (text) parts.push({ text, hit });
}

/** The start of the first field that says anything, when no word is there to highlight. */
function plain(s: SearchableText | null): Snippet {
  for (const [name, field] of FIELDS) {
    const text = s?.[name].trim();
    if (text) return { field, parts: [{ text: text.length > 200 ? `${text.slice(0, 200)}…` : text, hit: false }] };
  }
  return { field: 'TEXT', parts: [] };
}

/** A long field cut to a window around the first place a query word appears (or its start). */
function windowed(text: string, words: string[]): string {
  if (text.length <= WINDOW) return text;
  const lower = text.toLowerCase();
  let at = -1;
  for (const w of words) {
    const i = lower.indexOf(w);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const start = Math.max(0, (at === -1 ? 0 : at) - WINDOW / 2);
  return text.slice(start, start + WINDOW);
}
