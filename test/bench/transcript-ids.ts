import { createHash } from 'node:crypto';

// The ids in Claude Code transcripts, and a rewrite of them for one copy of a corpus: each id
// becomes another of the same length and character class, the same way everywhere in the copy
// (links hold) and differently in every copy (copies never merge). Texts are handled as latin1
// strings, one character per byte, so a rewrite moves no byte of anything else.
//
// The shapes, as found in the real fixtures: UUIDs (sessions, lines, prompts, file snapshots,
// older tool calls); `toolu_`, `srvtoolu_`, `msg_` and `req_` with 20+ base62 characters (tool
// calls, API messages and requests; shorter ones are words in code). Some ids have no shape of
// their own (hex agent ids of 7, 8 or 17 characters, `acompact-<hex>`, background shell and task
// ids, a session file not named by a UUID): those are known by the fields and file names that
// hold them. Not ids here: per-session counters (`bash_1`, todo ids "1", "2") and session slugs
// (names made of words).

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const PREFIXED = '(?:srvtoolu|toolu|msg|req)_[A-Za-z0-9]{20,}';
/** fields whose values are ids of no shape of their own */
const NAMED_ID_FIELDS = new Set(['agentId', 'backgroundTaskId', 'bash_id', 'shellId', 'shell_id', 'task_id']);
/** what such a value must look like to be taken for an id (not a counter like `bash_1`) */
const NAMED_ID = /^(?:[a-z]+-)?[0-9a-f]{6,}$/;
const UUID_ONLY = new RegExp(`^${UUID}$`);

/** The ids of a corpus: by shape, plus the ones named by fields and file names. */
export class TranscriptIds {
  readonly pattern: RegExp;

  constructor(readonly named: ReadonlySet<string>) {
    const words = [...named].sort((a, b) => b.length - a.length).map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    const any = [UUID, PREFIXED, ...words].join('|');
    this.pattern = new RegExp(`(?<![A-Za-z0-9])(?:${any})(?![A-Za-z0-9])`, 'g');
  }

  /**
   * Finds the ids without a shape in a corpus: `files` maps each transcript's path under the
   * root to its text. Session files not named by a UUID are ids too (their name is the session's key).
   */
  static of(files: Map<string, string>): TranscriptIds {
    const named = new Set<string>();
    for (const [path, text] of files) {
      const stem = path
        .split('/')
        .pop()!
        .replace(/\.jsonl$/, '');
      if (stem.startsWith('agent-')) named.add(stem.slice('agent-'.length));
      else if (!UUID_ONLY.test(stem)) named.add(stem);
      for (const line of text.split('\n')) if (line) collectNamed(JSON.parse(line), named);
    }
    return new TranscriptIds(named);
  }

  /** Every id in a text, in order, repeats included. */
  in(text: string): string[] {
    return text.match(this.pattern) ?? [];
  }

  /** Where each id of a text lies, as [start, end) offsets. */
  spans(text: string): [number, number][] {
    return [...text.matchAll(this.pattern)].map((m) => [m.index, m.index + m[0].length]);
  }
}

function collectNamed(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectNamed(v, into);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (NAMED_ID_FIELDS.has(key) && typeof v === 'string' && NAMED_ID.test(v)) into.add(v);
      else collectNamed(v, into);
    }
  }
}

const HEX_LOWER = '0123456789abcdef';
const HEX_UPPER = '0123456789ABCDEF';
const DIGITS = '0123456789';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The rewrite of one copy: a fixed mapping of each id, none of them given out twice across copies. */
export class CopyIds {
  private readonly mapped = new Map<string, string>();

  /** `taken`: every id seen or given out so far, in the source and every copy (shared by all copies). */
  constructor(
    private readonly ids: TranscriptIds,
    private readonly copy: number,
    private readonly taken: Set<string>,
  ) {}

  /** The text with every id replaced by this copy's; every other character as it was. */
  rewrite(text: string): string {
    return text.replace(this.ids.pattern, (id) => this.map(id));
  }

  map(id: string): string {
    let to = this.mapped.get(id);
    if (to !== undefined) return to;
    for (let salt = 0; to === undefined || this.taken.has(to); salt++) to = scramble(id, `${this.copy}/${salt}`);
    this.taken.add(to);
    this.mapped.set(id, to);
    return to;
  }
}

/**
 * The id with its characters drawn anew from a hash of (key, id): hex stays hex (of its case),
 * digits stay digits, letters stay letters of their case; separators and prefixes (`toolu_`,
 * `acompact-`) stay.
 */
function scramble(id: string, key: string): string {
  const keep = /^(?:[a-z]+_|[a-z]+-(?=[0-9a-f]+$))/.exec(id)?.[0].length ?? 0;
  const body = id.slice(keep);
  const hex = /^[0-9a-fA-F-]+$/.test(body) ? (/[A-F]/.test(body) ? HEX_UPPER : HEX_LOWER) : null;
  const random = randomBytes(`${key}/${id}`, body.length);
  let out = id.slice(0, keep);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    const from = hex && c !== '-' ? hex : c >= '0' && c <= '9' ? DIGITS : c >= 'a' && c <= 'z' ? LOWER : c >= 'A' && c <= 'Z' ? UPPER : null;
    out += from ? from[random[i] % from.length] : c;
  }
  return out;
}

function randomBytes(seed: string, length: number): Buffer {
  const chunks: Buffer[] = [];
  for (let n = 0; chunks.length * 64 < length; n++) chunks.push(createHash('sha512').update(`${n}/${seed}`).digest());
  return Buffer.concat(chunks);
}
