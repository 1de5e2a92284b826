import type { Json } from './fields';

// Reads the few fields the index needs from one JSON line's UTF-8 bytes, without decoding the
// line or building the rest of it. Most of a transcript's bytes are strings nobody indexes (tool
// results, twice; file contents; thinking): those are stepped over with Buffer.indexOf on the
// closing quote, and the objects and arrays holding them by matching brackets. What is kept is
// exactly what JSON.parse would give for it; every token outside strings is checked against the
// JSON grammar, and anything the scanner is unsure of (a line that is no object, is cut short,
// nests too deep, has an escape in a key, or a kept value JSON.parse rejects) makes it answer
// null, so the caller parses the line whole and reports what JSON.parse reports.
//
// One known difference: the body of a string that is skipped is not checked. A raw control
// character or a bad escape inside it (which Claude Code's JSON.stringify never writes) makes
// JSON.parse reject the line, while the scanner reads the line's kept fields as if it were sound.

/**
 * What of a value is read. A Want with nothing set is the whole value, exactly as JSON.parse
 * gives it; so is a value of a shape the Want does not describe (a string where fields were
 * expected), which keeps odd lines exact at the cost of reading them whole.
 */
export interface Want {
  /** when the value is an object: only these keys are read, the others skipped */
  fields?: Record<string, Want>;
  /** when the value is an array: each item is read so */
  items?: Want;
  /** when the value is a string: kept only when it starts with this, else read as absent */
  prefix?: string;
  /**
   * the value is kept only when this passes, asked once the line is read, of the object holding
   * it and of the whole record (a tool call's input by the tool's name, a field only some record
   * types are read for by the record's type); until then it is stepped over like a value not wanted
   */
  when?: (holder: Json, record: Json) => boolean;
}

/** A Want made ready for matching keys as bytes. */
export interface Plan {
  /** keys by their length in bytes */
  readonly keys: Key[][] | null;
  readonly items: Plan | null;
  readonly prefix: Buffer | null;
  readonly when: ((holder: Json, record: Json) => boolean) | null;
}

interface Key {
  readonly name: string;
  readonly bytes: Buffer;
  readonly plan: Plan;
}

export function compileWant(want: Want): Plan {
  let keys: Key[][] | null = null;
  if (want.fields) {
    keys = [];
    for (const [name, child] of Object.entries(want.fields)) {
      const bytes = Buffer.from(name);
      keys[bytes.length] ??= [];
      keys[bytes.length].push({ name, bytes, plan: compileWant(child) });
    }
  }
  return {
    keys,
    items: want.items ? compileWant(want.items) : null,
    prefix: want.prefix === undefined ? null : Buffer.from(want.prefix),
    when: want.when ?? null,
  };
}

/** A kept value decided once the line is read (`when`); kept from line to line, so no line allocates one. */
interface Deferred {
  holder: Json;
  name: string;
  from: number;
  when: (holder: Json, record: Json) => boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
/** Deeper than this the line is parsed whole: real transcripts nest far less. */
const MAX_DEPTH = 64;
/** Strings shorter than this (keys, ids) are walked byte by byte: cheaper than a native call. */
const SHORT_STRING = 24;
const EMPTY = Buffer.alloc(0);
/**
 * Strings shorter than this are shared between lines (types, models, tool names, branches):
 * longer ones (ids, times, paths) differ from line to line, and looking them up cost more than
 * decoding them.
 */
const SHARED_LENGTH = 24;
const SHARED_BITS = 12;
const shared: string[] = new Array<string>(1 << SHARED_BITS).fill('');
/** Buffer's own decoders, without toString's checks of its arguments (in every Node release, undocumented). */
interface DecodingBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}
const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

class Scanner {
  private buf: Buffer = EMPTY;
  private end = 0;
  /** the value the last read produced */
  private value: unknown = undefined;
  private readonly deferred: Deferred[] = [];
  private deferredCount = 0;

  scan(buf: Buffer, start: number, end: number, plan: Plan): Json | null {
    this.buf = buf;
    this.end = end;
    try {
      const p = this.ws(start);
      if (this.byte(p) !== LBRACE || plan.keys === null) return null;
      const to = this.object(p, plan, 0);
      if (to < 0 || this.ws(to) !== end) return null;
      const record = this.value as Json;
      for (let i = 0; i < this.deferredCount; i++) {
        const { holder, name, from, when } = this.deferred[i];
        if (!when(holder, record)) continue;
        if (this.whole(from, 0) < 0) return null;
        holder[name] = this.value;
      }
      return record;
    } catch {
      // a kept value JSON.parse rejects: the whole line is parsed, for JSON.parse's own message
      return null;
    } finally {
      this.buf = EMPTY;
      this.value = undefined;
      this.deferredCount = 0;
    }
  }

  private defer(holder: Json, name: string, from: number, when: Deferred['when']): void {
    const d = this.deferred[this.deferredCount++];
    if (d === undefined) {
      this.deferred.push({ holder, name, from, when });
      return;
    }
    d.holder = holder;
    d.name = name;
    d.from = from;
    d.when = when;
  }

  private byte(p: number): number {
    return p < this.end ? this.buf[p] : -1;
  }

  private ws(p: number): number {
    const { buf, end } = this;
    while (p < end) {
      const c = buf[p];
      if (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a) break;
      p++;
    }
    return p;
  }

  /** An object read sparsely into `this.value`; `p` is at its `{`. Returns where it ends, or -1. */
  private object(p: number, plan: Plan, depth: number): number {
    const holder: Json = {};
    p = this.ws(p + 1);
    if (this.byte(p) === RBRACE) {
      this.value = holder;
      return p + 1;
    }
    for (;;) {
      if (this.byte(p) !== QUOTE) return -1;
      const close = this.keyEnd(p + 1);
      if (close < 0) return -1;
      const key = this.keyAt(plan.keys!, p + 1, close);
      p = this.ws(close + 1);
      if (this.byte(p) !== COLON) return -1;
      const from = this.ws(p + 1);
      if (key === null) {
        p = this.skip(from, depth + 1);
      } else if (key.plan.when !== null) {
        p = this.skip(from, depth + 1);
        if (p >= 0) this.defer(holder, key.name, from, key.plan.when);
      } else {
        p = this.read(from, key.plan, depth + 1);
        // Last one wins, as in JSON.parse, when a key comes twice.
        if (p >= 0) holder[key.name] = this.value;
      }
      if (p < 0) return -1;
      p = this.ws(p);
      const c = this.byte(p);
      if (c === COMMA) {
        p = this.ws(p + 1);
      } else if (c === RBRACE) {
        this.value = holder;
        return p + 1;
      } else {
        return -1;
      }
    }
  }

  private array(p: number, plan: Plan, depth: number): number {
    const items: unknown[] = [];
    p = this.ws(p + 1);
    if (this.byte(p) === RBRACKET) {
      this.value = items;
      return p + 1;
    }
    for (;;) {
      p = this.read(p, plan, depth + 1);
      if (p < 0) return -1;
      items.push(this.value);
      p = this.ws(p);
      const c = this.byte(p);
      if (c === COMMA) {
        p = this.ws(p + 1);
      } else if (c === RBRACKET) {
        this.value = items;
        return p + 1;
      } else {
        return -1;
      }
    }
  }

  /** A wanted value into `this.value`: as far as the plan describes it, else whole. */
  private read(p: number, plan: Plan, depth: number): number {
    if (depth > MAX_DEPTH) return -1;
    const c = this.byte(p);
    if (c === LBRACE && plan.keys !== null) return this.object(p, plan, depth);
    if (c === LBRACKET && plan.items !== null) return this.array(p, plan.items, depth);
    if (c === QUOTE && plan.prefix !== null && !this.startsWith(p + 1, plan.prefix)) {
      this.value = undefined;
      return this.skipString(p);
    }
    return this.whole(p, depth);
  }

  /** Any value, exactly as JSON.parse gives it. */
  private whole(p: number, depth: number): number {
    const c = this.byte(p);
    if (c === QUOTE) return this.string(p);
    if (c === LBRACE || c === LBRACKET) {
      const to = this.skip(p, depth);
      if (to >= 0) this.value = JSON.parse(this.buf.toString('utf8', p, to));
      return to;
    }
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.number(p);
    return this.literal(p, true);
  }

  /** A kept string, decoded: directly when it holds no escape, else by JSON.parse of its slice. */
  private string(p: number): number {
    const { buf, end } = this;
    let high = 0;
    for (let i = p + 1; i < end; i++) {
      const c = buf[i];
      if (c === QUOTE) {
        const bytes = buf as DecodingBuffer;
        this.value = high >= 0x80 ? bytes.utf8Slice(p + 1, i) : i - p <= SHARED_LENGTH ? this.ascii(p + 1, i) : bytes.latin1Slice(p + 1, i);
        return i + 1;
      }
      // JSON.parse reads escapes, and rejects what a string may not hold raw (it throws: unsure)
      if (c === BACKSLASH || c < 0x20) {
        // on from past the escaped byte, which may be a quote
        const to = this.skipString(c === BACKSLASH ? i + 1 : i);
        if (to >= 0) this.value = JSON.parse(buf.toString('utf8', p, to));
        return to;
      }
      high |= c;
    }
    return -1;
  }

  /**
   * A short ASCII string, shared with the last line that had it: short kept values repeat line
   * after line (a type, a model, a branch, a tool's name), and a shared string is neither
   * decoded again nor held twice by the index.
   */
  private ascii(from: number, to: number): string {
    const { buf } = this;
    const length = to - from;
    // its length and a few bytes: ids and times differ in their last ones
    const sample = buf[to - 1] | (buf[to - 2] << 8) | (buf[to - 3] << 16) | (buf[from + (length >> 1)] << 24);
    const slot = Math.imul(sample ^ length, 0x9e3779b1) >>> (32 - SHARED_BITS);
    const known = shared[slot];
    if (known.length === length) {
      // from the end: ids and times that differ do so there, paths and dates share their start
      let i = length - 1;
      while (i >= 0 && known.charCodeAt(i) === buf[from + i]) i--;
      if (i < 0) return known;
    }
    const fresh = (buf as DecodingBuffer).latin1Slice(from, to);
    shared[slot] = fresh;
    return fresh;
  }

  /** Where a key's closing quote is; -1 for a key with an escape (JSON.parse compares those) or a raw control byte. */
  private keyEnd(p: number): number {
    const { buf, end } = this;
    for (; p < end; p++) {
      const c = buf[p];
      if (c === QUOTE) return p;
      if (c === BACKSLASH || c < 0x20) return -1;
    }
    return -1;
  }

  private keyAt(keys: Key[][], from: number, to: number): Key | null {
    const candidates = keys[to - from];
    if (candidates === undefined) return null;
    const buf = this.buf;
    next: for (const key of candidates) {
      const bytes = key.bytes;
      for (let i = 0; i < bytes.length; i++) if (bytes[i] !== buf[from + i]) continue next;
      return key;
    }
    return null;
  }

  private startsWith(p: number, prefix: Buffer): boolean {
    if (p + prefix.length > this.end) return false;
    for (let i = 0; i < prefix.length; i++) if (this.buf[p + i] !== prefix[i]) return false;
    return true;
  }

  /** Steps over any value, checking the grammar outside strings. Returns where it ends, or -1. */
  private skip(p: number, depth: number): number {
    const c = this.byte(p);
    if (c === QUOTE) return this.skipString(p);
    if (c === LBRACE || c === LBRACKET) return depth > MAX_DEPTH ? -1 : this.skipContainer(p, c === LBRACE, depth);
    if (c === MINUS || (c >= ZERO && c <= NINE)) return this.skipNumber(p);
    return this.literal(p, false);
  }

  private skipContainer(p: number, isObject: boolean, depth: number): number {
    const close = isObject ? RBRACE : RBRACKET;
    p = this.ws(p + 1);
    if (this.byte(p) === close) return p + 1;
    for (;;) {
      if (isObject) {
        if (this.byte(p) !== QUOTE) return -1;
        p = this.skipString(p);
        if (p < 0) return -1;
        p = this.ws(p);
        if (this.byte(p) !== COLON) return -1;
        p = this.ws(p + 1);
      }
      p = this.skip(p, depth + 1);
      if (p < 0) return -1;
      p = this.ws(p);
      const c = this.byte(p);
      if (c === close) return p + 1;
      if (c !== COMMA) return -1;
      p = this.ws(p + 1);
    }
  }

  /** `p` is at the opening quote; returns just past the closing one, or -1. */
  private skipString(p: number): number {
    const { buf, end } = this;
    let i = p + 1;
    const short = Math.min(end, i + SHORT_STRING);
    for (; i < short; i++) {
      const c = buf[i];
      if (c === QUOTE) return i + 1;
      if (c === BACKSLASH) i++;
    }
    for (;;) {
      const q = buf.indexOf(QUOTE, i);
      if (q < 0 || q >= end) return -1;
      // escaped only after an odd run of backslashes (the opening quote bounds the run)
      let k = q - 1;
      while (buf[k] === BACKSLASH) k--;
      if ((q - k) % 2 === 1) return q + 1;
      i = q + 1;
    }
  }

  /** A kept number: a small whole one (token counts) summed here, any other by Number(). */
  private number(p: number): number {
    const to = this.skipNumber(p);
    if (to < 0) return -1;
    const { buf } = this;
    let n = 0;
    let i = p;
    // 15 digits stay exact as a double
    if (to - p <= 15) while (i < to && buf[i] >= ZERO && buf[i] <= NINE) n = n * 10 + buf[i++] - ZERO;
    this.value = i === to ? n : Number(buf.toString('latin1', p, to));
    return to;
  }

  /** JSON's number grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
  private skipNumber(p: number): number {
    if (this.byte(p) === MINUS) p++;
    const first = this.byte(p);
    if (first === ZERO) p++;
    else if (first > ZERO && first <= NINE) p = this.digits(p);
    else return -1;
    if (this.byte(p) === DOT) {
      const after = this.digits(p + 1);
      if (after === p + 1) return -1;
      p = after;
    }
    const e = this.byte(p);
    if (e === 0x65 || e === 0x45) {
      p++;
      const sign = this.byte(p);
      if (sign === PLUS || sign === MINUS) p++;
      const after = this.digits(p);
      if (after === p) return -1;
      p = after;
    }
    return p;
  }

  private digits(p: number): number {
    for (;;) {
      const c = this.byte(p);
      if (c < ZERO || c > NINE) return p;
      p++;
    }
  }

  private literal(p: number, keep: boolean): number {
    const c = this.byte(p);
    const word = c === 0x74 ? TRUE : c === 0x66 ? FALSE : c === 0x6e ? NULL : null;
    if (word === null || !this.startsWith(p, word)) return -1;
    if (keep) this.value = word === TRUE ? true : word === FALSE ? false : null;
    return p + word.length;
  }
}

const scanner = new Scanner();

/**
 * The fields `plan` wants from the JSON object at bytes [start, end) of `buf`, or null when the
 * scanner is unsure of the line: then it is for JSON.parse to read (or reject) whole.
 */
export const scanLine = (buf: Buffer, start: number, end: number, plan: Plan): Json | null => scanner.scan(buf, start, end, plan);
