import { BadInputError } from '../model/source';

// The search box's little language:
//   words  "a phrase"  prefix*  tool:Bash  dir:/home/me/src/api  host:gpu-box  after:2026-11-01  before:2026-11-20
// Words are ANDed. A word with punctuation inside (snake_case, src/a.ts) is the phrase of its
// parts, as the tokenizer splits it. Every token reaches FTS5 quoted, so nothing typed is FTS5 syntax.

export interface ParsedQuery {
  /** each an FTS5 phrase: one or more tokens; `prefix` when its last token is a prefix */
  phrases: { tokens: string[]; prefix: boolean }[];
  tool: string | null;
  dir: string | null;
  hosts: string[];
  /** epoch ms */
  after: number | null;
  before: number | null;
}

/** A query asks for at most this many words: each is a lookup in the index. */
const MAX_PHRASES = 32;

export function parseQuery(input: string): ParsedQuery {
  const q: ParsedQuery = { phrases: [], tool: null, dir: null, hosts: [], after: null, before: null };
  const pieces = /"([^"]*)"?|(\S+)/g;
  for (let m = pieces.exec(input); m; m = pieces.exec(input)) {
    if (m[1] !== undefined) {
      addPhrase(q, tokensOf(m[1]), false);
      continue;
    }
    const word = m[2];
    const colon = word.indexOf(':');
    const key = colon > 0 ? word.slice(0, colon).toLowerCase() : '';
    const value = colon > 0 ? word.slice(colon + 1) : '';
    if (value && key === 'tool') q.tool = value;
    else if (value && key === 'dir') q.dir = value;
    else if (value && key === 'host') q.hosts.push(value);
    else if (value && (key === 'after' || key === 'before')) q[key] = dateOf(key, value);
    else addPhrase(q, tokensOf(word.endsWith('*') ? word.slice(0, -1) : word), word.endsWith('*'));
  }
  if (q.phrases.length > MAX_PHRASES) throw new BadInputError(`a search may have at most ${MAX_PHRASES} words or phrases`);
  return q;
}

/** The same split as the index's unicode61 tokenizer: runs of letters and digits, lower-cased. */
export function tokensOf(s: string): string[] {
  return s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

function addPhrase(q: ParsedQuery, tokens: string[], prefix: boolean): void {
  if (tokens.length > 0) q.phrases.push({ tokens, prefix });
}

function dateOf(key: string, value: string): number {
  const t = Date.parse(value);
  if (Number.isNaN(t)) throw new BadInputError(`${key}:${value} is not a date; write it like ${key}:2026-11-01`);
  return t;
}

/** The FTS5 MATCH expression of the words (without the tool), or null when there are none. */
export function wordsMatch(q: ParsedQuery): string | null {
  if (q.phrases.length === 0) return null;
  return q.phrases.map((p) => `"${p.tokens.join(' ')}"${p.prefix ? '*' : ''}`).join(' AND ');
}

/** The whole MATCH expression: the words, and the tool as a column filter. */
export function fullMatch(q: ParsedQuery, tool: string | null): string | null {
  const words = wordsMatch(q);
  const toolTokens = tool ? tokensOf(tool) : [];
  const toolPart = toolTokens.length > 0 ? `tools : "${toolTokens.join(' ')}"` : null;
  if (words && toolPart) return `${words} AND ${toolPart}`;
  return words ?? toolPart;
}

/** The query without its host: words, for a host that is asked already because it was named. */
export function withoutHosts(input: string): string {
  return input.replace(/(^|\s)host:\S*/gi, ' ').trim();
}
