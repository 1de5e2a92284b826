import { bareAtom } from '../model/atom';
import type { AtomMeta, AtomType, Author } from '../model/types';
import { type MessageUsage, tokensAt } from '../model/usage';
import type { GraphRecord, TranscriptRecord } from './record';

// What an index worker parsed, packed for the trip to the kernel's thread: structured clone of a
// batch of record objects cost the main thread more than parsing them itself (docs/performance.md).
// Three streams, written and read in the same order: Int32 for kinds, flags, counts and string
// ids; Float64 for times, offsets and token counts; strings as UTF-8 bytes with their ends. All
// three go across as transferred buffers, and the kernel's thread builds each object once.
// Small recurring strings (record types, models, cwd, branches, usage keys, tool names) are
// stored once per batch. Goal tools (a few lines in a thousand) go as one small JSON string.
// Blank lines (parseLine's null) are not packed: the batch's tail state counts them.

/** A batch of packed parse results, as posted (its buffers transferred). */
export interface PackedRecords {
  count: number;
  ints: Int32Array;
  nums: Float64Array;
  bytes: Uint8Array;
  /** where each string ends in `bytes` (it starts where the one before ends) */
  ends: Int32Array;
}

/** The buffers to transfer with a batch. */
export const transferList = (p: PackedRecords): ArrayBuffer[] => [p.ints.buffer, p.nums.buffer, p.bytes.buffer, p.ends.buffer] as ArrayBuffer[];

enum Kind {
  Graph,
  Summary,
  Title,
  Other,
  Error,
}

const AUTHOR_KINDS: Author['kind'][] = ['human', 'sdk', 'system', 'peer'];
/** an author with more than its kind (a peer's name, a message sent from Loom) */
const AUTHOR_IN_FULL = -2;
const NONE = -1;

class IntColumn {
  data = new Int32Array(4096);
  length = 0;
  push(n: number): void {
    if (this.length === this.data.length) this.data = grown(this.data, this.data.length * 2);
    this.data[this.length++] = n;
  }
}

class NumColumn {
  data = new Float64Array(1024);
  length = 0;
  push(n: number): void {
    if (this.length === this.data.length) this.data = grown(this.data, this.data.length * 2);
    this.data[this.length++] = n;
  }
}

function grown<T extends Int32Array | Float64Array | Uint8Array>(array: T, size: number): T {
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  return next;
}

/** Packs parse results, one line at a time; `take()` hands over a batch and starts the next. */
export class RecordPacker {
  private count = 0;
  private ints = new IntColumn();
  private nums = new NumColumn();
  private bytes = Buffer.allocUnsafe(1 << 16);
  private used = 0;
  private ends = new IntColumn();
  private words = new Map<string, number>();

  get size(): number {
    return this.count;
  }

  /** One line's result; `number` and `offset` place a reason (a line that holds no record). */
  add(result: TranscriptRecord | string | null, number: number, offset: number): void {
    if (result === null) return;
    this.count++;
    if (typeof result === 'string') {
      this.ints.push(Kind.Error);
      this.ints.push(number);
      this.nums.push(offset);
      this.text(result);
      return;
    }
    switch (result.kind) {
      case 'summary':
        this.ints.push(Kind.Summary);
        this.text(result.leafUuid);
        this.text(result.text);
        return;
      case 'title':
        this.ints.push(Kind.Title);
        this.text(result.title);
        this.ints.push(result.custom ? 1 : 0);
        return;
      case 'other':
        this.ints.push(Kind.Other);
        this.word(result.recordType);
        this.ints.push(result.sidechain ? 1 : 0);
        return;
      default:
        this.graph(result);
    }
  }

  /** The batch so far, in buffers of its own (to transfer); the packer starts empty again. */
  take(): PackedRecords {
    const packed: PackedRecords = {
      count: this.count,
      ints: this.ints.data.slice(0, this.ints.length),
      nums: this.nums.data.slice(0, this.nums.length),
      bytes: Uint8Array.prototype.slice.call(this.bytes, 0, this.used),
      ends: this.ends.data.slice(0, this.ends.length),
    };
    this.count = 0;
    this.ints.length = 0;
    this.nums.length = 0;
    this.ends.length = 0;
    this.used = 0;
    this.words.clear();
    return packed;
  }

  private graph(r: GraphRecord): void {
    this.ints.push(Kind.Graph);
    this.text(r.uuid);
    this.text(r.parent);
    this.ints.push(r.sidechain ? 1 : 0);
    this.word(r.recordType);
    this.word(r.cwd);
    this.word(r.gitBranch);
    this.word(r.sessionId);
    if (r.boundary) {
      this.ints.push(1);
      this.text(r.boundary.logicalParent);
      this.text(r.boundary.preservedTail);
    } else this.ints.push(0);
    this.usage(r.subagentUsage);
    if (r.atom) this.atom(r.atom);
    else this.ints.push(0);
  }

  private atom(a: AtomMeta): void {
    this.ints.push(1);
    this.word(a.type);
    this.word(a.subtype);
    this.nums.push(a.t);
    this.nums.push(a.offset);
    this.nums.push(a.length);
    this.author(a.author);
    this.word(a.model);
    this.word(a.stopReason);
    this.list(a.toolUses);
    this.list(a.toolResults);
    this.wordList(a.toolNames);
    this.text(a.promptLine);
    this.ints.push((a.interrupt ? 1 : 0) | (a.terminalNote ? 2 : 0));
    this.usage(a.usage);
    this.text(a.goalTools ? JSON.stringify(a.goalTools) : null);
  }

  private author(author: Author | null): void {
    if (!author) return this.ints.push(NONE);
    const plain = Object.keys(author).length === 1;
    if (plain) return this.ints.push(AUTHOR_KINDS.indexOf(author.kind));
    this.ints.push(AUTHOR_IN_FULL);
    this.text(JSON.stringify(author));
  }

  private list(items: string[] | null): void {
    if (!items) return this.ints.push(NONE);
    this.ints.push(items.length);
    for (const item of items) this.text(item);
  }

  /** a list of names that repeat from line to line (tools'): each stored once a batch */
  private wordList(items: string[] | null): void {
    if (!items) return this.ints.push(NONE);
    this.ints.push(items.length);
    for (const item of items) this.word(item);
  }

  private usage(u: MessageUsage | null): void {
    if (!u) return this.ints.push(0);
    this.ints.push(1);
    this.word(u.key);
    this.word(u.model);
    this.nums.push(u.t);
    this.nums.push(u.input);
    this.nums.push(u.output);
    this.nums.push(u.cacheWrite);
    this.nums.push(u.cacheWrite5m);
    this.nums.push(u.cacheWrite1h);
    this.nums.push(u.cacheRead);
  }

  /** A string stored once per batch, however often it recurs. */
  private word(s: string | null): void {
    if (s === null) return this.ints.push(NONE);
    let id = this.words.get(s);
    if (id === undefined) {
      id = this.store(s);
      this.words.set(s, id);
    }
    this.ints.push(id);
  }

  /** A string that rarely recurs (ids, prompts). */
  private text(s: string | null): void {
    this.ints.push(s === null ? NONE : this.store(s));
  }

  private store(s: string): number {
    const most = this.used + s.length * 3;
    if (most > this.bytes.length) {
      const next = Buffer.allocUnsafe(Math.max(most, this.bytes.length * 2));
      this.bytes.copy(next, 0, 0, this.used);
      this.bytes = next;
    }
    this.used += this.bytes.write(s, this.used, 'utf8');
    this.ends.push(this.used);
    return this.ends.length - 1;
  }
}

/**
 * Unpacks a batch, handing each result to `each` in the order they were packed. `file` and
 * `fsid` are the file's (the same for every record, so never packed).
 */
export function unpackRecords(
  p: PackedRecords,
  file: string,
  fsid: string,
  each: (result: TranscriptRecord | string, number: number, offset: number) => void,
): void {
  new Unpacker(p, file, fsid).run(each);
}

class Unpacker {
  private i = 0;
  private n = 0;
  private readonly bytes: Buffer;
  private readonly strings: (string | undefined)[];

  constructor(
    private readonly p: PackedRecords,
    private readonly file: string,
    private readonly fsid: string,
  ) {
    this.bytes = Buffer.from(p.bytes.buffer, p.bytes.byteOffset, p.bytes.byteLength);
    this.strings = new Array(p.ends.length);
  }

  run(each: (result: TranscriptRecord | string, number: number, offset: number) => void): void {
    const ints = this.p.ints;
    for (let k = 0; k < this.p.count; k++) {
      const kind = ints[this.i++] as Kind;
      if (kind === Kind.Error) {
        const number = ints[this.i++];
        const offset = this.num();
        each(this.str()!, number, offset);
      } else if (kind === Kind.Summary) each({ kind: 'summary', leafUuid: this.str()!, text: this.str()! }, 0, 0);
      else if (kind === Kind.Title) each({ kind: 'title', title: this.str()!, custom: this.flag() }, 0, 0);
      else if (kind === Kind.Other) each({ kind: 'other', recordType: this.str()!, sidechain: this.flag(), uuid: null, parent: null }, 0, 0);
      else each(this.graph(), 0, 0);
    }
  }

  private graph(): GraphRecord {
    const uuid = this.str()!;
    const parent = this.str();
    const sidechain = this.flag();
    const recordType = this.str()!;
    const cwd = this.str();
    const gitBranch = this.str();
    const sessionId = this.str();
    const boundary = this.flag() ? { logicalParent: this.str(), preservedTail: this.str() } : null;
    const subagentUsage = this.usage();
    const atom = this.flag() ? this.atom(uuid) : null;
    // the fields in parseLine's order: the kernel's objects keep one shape whichever thread parsed them
    return { kind: 'graph', uuid, parent, sidechain, recordType, file: this.file, atom, boundary, cwd, gitBranch, sessionId, subagentUsage };
  }

  private atom(uuid: string): AtomMeta {
    const type = this.str() as AtomType;
    const subtype = this.str();
    const t = this.num();
    const offset = this.num();
    const length = this.num();
    const atom = bareAtom(uuid, type, t, { fsid: this.fsid, file: this.file, offset, length });
    atom.subtype = subtype;
    atom.author = this.author();
    atom.model = this.str();
    atom.stopReason = this.str();
    atom.toolUses = this.list();
    atom.toolResults = this.list();
    atom.toolNames = this.list();
    atom.promptLine = this.str();
    const flags = this.p.ints[this.i++];
    atom.interrupt = (flags & 1) !== 0;
    atom.terminalNote = (flags & 2) !== 0;
    atom.usage = this.usage();
    const goalTools = this.str();
    atom.goalTools = goalTools === null ? null : JSON.parse(goalTools);
    return atom;
  }

  private author(): Author | null {
    const code = this.p.ints[this.i++];
    if (code === NONE) return null;
    if (code === AUTHOR_IN_FULL) return JSON.parse(this.str()!) as Author;
    return { kind: AUTHOR_KINDS[code] } as Author;
  }

  private list(): string[] | null {
    const n = this.p.ints[this.i++];
    if (n === NONE) return null;
    const items = new Array<string>(n);
    for (let k = 0; k < n; k++) items[k] = this.str()!;
    return items;
  }

  private usage(): MessageUsage | null {
    if (!this.flag()) return null;
    const key = this.str()!;
    const model = this.str();
    const nums = this.p.nums;
    const at = this.n;
    this.n += 7;
    return { key, t: nums[at], model, ...tokensAt(nums, at + 1) };
  }

  private flag(): boolean {
    return this.p.ints[this.i++] === 1;
  }

  private num(): number {
    return this.p.nums[this.n++];
  }

  private str(): string | null {
    const id = this.p.ints[this.i++];
    if (id === NONE) return null;
    let s = this.strings[id];
    if (s === undefined) {
      s = this.bytes.toString('utf8', id === 0 ? 0 : this.p.ends[id - 1], this.p.ends[id]);
      this.strings[id] = s;
    }
    return s;
  }
}
