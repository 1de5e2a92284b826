import { isoMillisAt, type Json, time } from './fields';
import { arenaFor, TAPE } from './line-scanner-memory';
import { keyNames, keyNests, keyTimes, keyWhens, type LineValues, type Plan } from './line-scanner-plans';
import { AN_OBJECT, emptyValues, keepValue, lineValues } from './line-values';

// Reads the few fields the index needs from one JSON line's UTF-8 bytes, without decoding the
// line or building the rest of it. Most of a transcript's bytes are strings nobody indexes (tool
// results, twice; file contents; thinking): the walk over the bytes (line-scanner.as.ts, in
// WebAssembly) steps over those sixteen bytes at a time, and the objects and arrays holding them
// by matching brackets, checking every byte JSON.parse would check; it writes where each wanted
// value lies to a tape, from which this file writes the line's values. What is kept is exactly
// what JSON.parse would give for it (for a time, what time() reads from that), and anything the
// scanner is unsure of (a line JSON.parse rejects, nests too deep, has an escape in a key or at
// the start of a string read by prefix, or more kept values than the tape holds), or a thread
// where the scanner cannot run, makes it answer null, so the caller parses the line whole and
// reports what JSON.parse reports.

// Tape entries, four words each (op and flags, key, from, to); keep in step with line-scanner.as.ts.
const OBJECT = 1;
const ARRAY = 2;
const END = 3;
const STRING = 4;
const NUMBER = 5;
const TRUE = 6;
const FALSE = 7;
const NULL = 8;
const WHOLE = 9;
const ABSENT = 10;
const DEFERRED = 1 << 8;
const ESCAPED = 1 << 9;
const HIGH = 1 << 10;

const ZERO = 0x30;
const NINE = 0x39;

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

/** A value kept whole, decided once the line is read (`when`); kept from line to line, so no line allocates one. */
interface Deferred {
  /** the array item holding it; NO_HOLDER for a value outside arrays */
  holder: Json;
  key: number;
  entry: number;
}
const deferred: Deferred[] = [];
/** A deferred entry's holder outside arrays, and between lines. */
const NO_HOLDER: Json = Object.freeze({});
/** The containers open inside an array while the tape is read, outermost first; NO_HOLDER past them. */
const open: (Json | unknown[])[] = [];

/**
 * Keeps the values the tape's `count` entries describe as the line's (line-values.ts); false when a
 * key the plan reads into comes twice outside arrays, which JSON.parse reads (the last one wins,
 * with none of the first one's fields). `delta` turns a memory address into a place in `buf`.
 * Outside arrays each value goes under its key; an array's items are built as sparse objects.
 */
function fill(words: Int32Array, count: number, buf: DecodingBuffer, delta: number): boolean {
  let deferredCount = 0;
  // containers open inside the array being built: 0 outside arrays
  let depth = 0;
  let holder: Json | unknown[] = NO_HOLDER;
  for (let entry = TAPE / 4, last = entry + count * 4; entry < last; entry += 4) {
    const op = words[entry] & 0xff;
    const key = words[entry + 1];
    if (depth === 0) {
      // outside arrays the tape holds no entry for the record itself and none for an object's end
      if (keyNests[key] && lineValues[key] !== undefined) return false;
      if (op === OBJECT) keepValue(key, AN_OBJECT);
      else if (op === ARRAY) {
        holder = [];
        keepValue(key, holder);
        depth = 1;
      } else if ((words[entry] & DEFERRED) !== 0) defer(deferredCount++, NO_HOLDER, key, entry);
      else keepValue(key, outsideArrays(words, entry, key, buf, delta));
      continue;
    }
    if (op === END) {
      holder = --depth === 0 ? NO_HOLDER : open[depth];
      open[depth] = NO_HOLDER;
      continue;
    }
    let value: unknown;
    if (op === OBJECT) {
      value = {};
    } else if (op === ARRAY) {
      value = [];
    } else if ((words[entry] & DEFERRED) !== 0) {
      defer(deferredCount++, holder as Json, key, entry);
      continue;
    } else {
      value = decode(words, entry, buf, delta);
    }
    // Last one wins, as in JSON.parse, when a key comes twice.
    if (key < 0) (holder as unknown[]).push(value);
    else (holder as Json)[keyNames[key]] = value;
    if (op === OBJECT || op === ARRAY) {
      open[depth++] = holder;
      holder = value as Json | unknown[];
    }
  }
  for (let i = 0; i < deferredCount; i++) {
    const d = deferred[i];
    const { holder: at, key, entry } = d;
    d.holder = NO_HOLDER;
    if (!keyWhens[key]!(at, lineValues)) continue;
    if (at === NO_HOLDER) keepValue(key, outsideArrays(words, entry, key, buf, delta));
    else at[keyNames[key]] = decode(words, entry, buf, delta);
  }
  return true;
}

function defer(index: number, holder: Json, key: number, entry: number): void {
  const d = deferred[index];
  if (d === undefined) deferred.push({ holder, key, entry });
  else {
    d.holder = holder;
    d.key = key;
    d.entry = entry;
  }
}

/** A kept value's entry, decoded as JSON.parse gives it (JSON.parse throws where it would). */
function decode(words: Int32Array, entry: number, buf: DecodingBuffer, delta: number): unknown {
  const flags = words[entry];
  const from = words[entry + 2] + delta;
  const to = words[entry + 3] + delta;
  switch (flags & 0xff) {
    case STRING:
      if ((flags & ESCAPED) !== 0) return JSON.parse(buf.utf8Slice(from - 1, to + 1));
      if ((flags & HIGH) !== 0) return buf.utf8Slice(from, to);
      return to - from < SHARED_LENGTH ? ascii(buf, from, to) : buf.latin1Slice(from, to);
    case NUMBER:
      return number(buf, from, to);
    case TRUE:
      return true;
    case FALSE:
      return false;
    case NULL:
      return null;
    case WHOLE:
      return JSON.parse(buf.utf8Slice(from, to));
    case ABSENT:
      // a string that does not start with its plan's prefix
      return undefined;
  }
  throw new Error('line-scanner: an entry the tape does not hold');
}

/** A value kept outside arrays: decoded, or the time it names when its plan reads it as one. */
function outsideArrays(words: Int32Array, entry: number, key: number, buf: DecodingBuffer, delta: number): unknown {
  return keyTimes[key] ? timeOf(words, entry, buf, delta) : decode(words, entry, buf, delta);
}

/** A value kept as the time it names (line-scanner-plans.ts): read from the bytes where it has the usual form. */
function timeOf(words: Int32Array, entry: number, buf: DecodingBuffer, delta: number): number | null {
  const flags = words[entry];
  if ((flags & 0xff) !== STRING) return null;
  const t = (flags & (ESCAPED | HIGH)) === 0 ? isoMillisAt(buf, words[entry + 2] + delta, words[entry + 3] + delta) : -1;
  return t >= 0 ? t : time(decode(words, entry, buf, delta));
}

/**
 * A short ASCII string, shared with the last line that had it: short kept values repeat line
 * after line (a type, a model, a branch, a tool's name), and a shared string is neither
 * decoded again nor held twice by the index.
 */
function ascii(buf: DecodingBuffer, from: number, to: number): string {
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
  const fresh = buf.latin1Slice(from, to);
  shared[slot] = fresh;
  return fresh;
}

/** A kept number: a small whole one (token counts) summed here, any other by Number(). */
function number(buf: DecodingBuffer, from: number, to: number): number {
  let n = 0;
  let i = from;
  // 15 digits stay exact as a double
  if (to - from <= 15) while (i < to && buf[i] >= ZERO && buf[i] <= NINE) n = n * 10 + buf[i++] - ZERO;
  return i === to ? n : Number(buf.latin1Slice(from, to));
}

/**
 * The values `plan` wants from the JSON object at bytes [start, end) of `buf`, kept by key number
 * (line-values.ts), or null when the scanner is unsure of the line: then it is for JSON.parse to
 * read (or reject) whole.
 */
export function scanLine(buf: Buffer, start: number, end: number, plan: Plan): LineValues | null {
  const arena = arenaFor(end - start);
  if (arena === null) return null;
  const count = arena.scan(buf, start, end, plan.address);
  if (count < 0) return null;
  emptyValues();
  let filled: boolean;
  try {
    filled = fill(arena.words, count, buf as DecodingBuffer, arena.delta);
  } catch {
    // the walk refuses what JSON.parse would; a value that still cannot be decoded (a string past
    // V8's longest) leaves the line to JSON.parse, for its own message
    filled = false;
  }
  if (filled) return lineValues;
  // nothing of a line left to JSON.parse is held: a fill cut short leaves containers in `open`
  // and `deferred` (one that ends empties them as it goes)
  emptyValues();
  open.fill(NO_HOLDER);
  for (const d of deferred) d.holder = NO_HOLDER;
  return null;
}
