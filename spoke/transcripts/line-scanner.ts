import type { Json } from './fields';
import { LINE_SCANNER_WASM } from './line-scanner-wasm';

// Reads the few fields the index needs from one JSON line's UTF-8 bytes, without decoding the
// line or building the rest of it. Most of a transcript's bytes are strings nobody indexes (tool
// results, twice; file contents; thinking): the walk over the bytes (line-scanner.as.ts, in
// WebAssembly) steps over those sixteen bytes at a time, and the objects and arrays holding them
// by matching brackets, checking every byte JSON.parse would check; it writes where each wanted
// value lies to a tape, from which this file builds the sparse object. What is kept is exactly
// what JSON.parse would give for it, and anything the scanner is unsure of (a line JSON.parse
// rejects, nests too deep, has an escape in a key or more kept values than the tape holds) makes
// it answer null, so the caller parses the line whole and reports what JSON.parse reports.

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
  /**
   * when the value is a string: kept only when it starts with this, else read as absent (printable
   * ASCII but for `"` and `\`, which are compared with the string's bytes as written)
   */
  prefix?: string;
  /**
   * the value is kept only when this passes, asked once the line is read, of the object holding
   * it and of the whole record (a tool call's input by the tool's name, a field only some record
   * types are read for by the record's type); until then it is stepped over like a value not wanted
   */
  when?: (holder: Json, record: Json) => boolean;
}

/** A Want made ready for the scanner: where it sits in the scanner's memory. */
export interface Plan {
  readonly address: number;
}

type When = (holder: Json, record: Json) => boolean;

// The scanner's memory, laid out by this file (line-scanner.as.ts reads it so): plans from
// PLANS (address 0 means none), the tape from TAPE, the line being read from LINE. A line longer
// than the resident memory holds is read in a memory made for it alone, so one long line does
// not keep its size for good.
const PLANS = 16;
const TAPE = 64 * 1024;
/** Room for 65,536 kept values: a line with more (none is known) is parsed whole. */
const TAPE_END = TAPE + 1024 * 1024;
const LINE = TAPE_END;
/** The scanner reads sixteen bytes at a time, up to the line's end: room past it. */
const SLACK = 16;
const PAGE = 64 * 1024;
const RESIDENT_LINE = 1024 * 1024;

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

/** Why the scanner cannot run here (its module or its memory refused), or null while it can. */
let problem: string | null = null;
const wasm = compiled();

/** The scanner's module; null where this Node cannot compile it (WebAssembly SIMD needs SSE4.1 on x64). */
function compiled(): WebAssembly.Module | null {
  try {
    return new WebAssembly.Module(Buffer.from(LINE_SCANNER_WASM, 'base64'));
  } catch (err) {
    problem = `its WebAssembly does not compile here (${(err as Error).message})`;
    return null;
  }
}

/** A memory and the scanner instance that reads it. */
class Arena {
  readonly bytes: Uint8Array;
  readonly words: Int32Array;
  readonly lineCapacity: number;
  private readonly scanner: (plan: number, start: number, stop: number, tapeStart: number, tapeStop: number) => number;

  constructor(wasm: WebAssembly.Module, lineCapacity: number) {
    const memory = new WebAssembly.Memory({ initial: Math.ceil((LINE + lineCapacity + SLACK) / PAGE) });
    const instance = new WebAssembly.Instance(wasm, { env: { memory } });
    this.scanner = instance.exports.scan as Arena['scanner'];
    this.bytes = new Uint8Array(memory.buffer);
    this.words = new Int32Array(memory.buffer, 0, TAPE_END / 4);
    this.lineCapacity = lineCapacity;
  }

  /** The line at [start, end) of `buf` read by `plan` onto the tape: how many entries, or -1. */
  scan(buf: Buffer, start: number, end: number, plan: Plan): number {
    // a plain view: Buffer's subarray costs a Buffer's construction, a tenth of the copy
    this.bytes.set(new Uint8Array(buf.buffer, buf.byteOffset + start, end - start), LINE);
    return this.scanner(plan.address, LINE, LINE + end - start, TAPE, TAPE_END);
  }
}

/**
 * The arena every line of up to RESIDENT_LINE bytes is read in. A WebAssembly memory reserves
 * gigabytes of address space up front: where that is refused (a low `ulimit -v`), or where the
 * module does not compile, there is none, and every line is parsed whole (the kernel's tracker
 * logs `LINE_SCANNER_PROBLEM` once).
 */
const resident = residentArena();
const plans = resident?.bytes ?? new Uint8Array(TAPE);
const planWords = new Int32Array(plans.buffer, plans.byteOffset, TAPE / 4);
/** Why lines are parsed whole here; null while the scanner reads them. */
export const LINE_SCANNER_PROBLEM =
  resident === null ? `the fast line reader cannot run: ${problem}; every transcript line is parsed whole, which is slower` : null;

function residentArena(): Arena | null {
  if (wasm === null) return null;
  try {
    return new Arena(wasm, RESIDENT_LINE);
  } catch (err) {
    problem = `it could not reserve its WebAssembly memory (${(err as Error).message}; is \`ulimit -v\` low?)`;
    return null;
  }
}

/** The next free byte for plans. */
let plansEnd = PLANS;
/** Every key of every plan, by its number on the tape. */
const keyNames: string[] = [];
const keyWhens: (When | null)[] = [];

function allocate(bytes: number): number {
  const address = plansEnd;
  plansEnd += (bytes + 3) & ~3;
  if (plansEnd > TAPE) throw new Error('line-scanner: the plans outgrew their room (PLANS to TAPE)');
  return address;
}

export function compileWant(want: Want): Plan {
  const words = planWords;
  const bytes = plans;
  const keys = Object.entries(want.fields ?? {}).map(([name, child]) => {
    const encoded = Buffer.from(name);
    const nameAddress = allocate(encoded.length);
    bytes.set(encoded, nameAddress);
    const number = keyNames.push(name) - 1;
    keyWhens.push(child.when ?? null);
    const address = allocate(20);
    words.set([nameAddress, encoded.length, compileWant(child).address, number, child.when ? 1 : 0], address / 4);
    return { address, hash: hashOf(encoded) };
  });
  // at most half full, so a probe ends soon at an empty slot
  const slots = Math.max(8, 2 ** Math.ceil(Math.log2(keys.length * 2)));
  const table = allocate(slots * 4);
  for (const { address, hash } of keys) {
    let slot = hash & (slots - 1);
    while (words[table / 4 + slot] !== 0) slot = (slot + 1) & (slots - 1);
    words[table / 4 + slot] = address;
  }
  const items = want.items ? compileWant(want.items).address : 0;
  let prefix = 0;
  if (want.prefix !== undefined && !/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(want.prefix)) {
    throw new Error(`line-scanner: a prefix is printable ASCII but for " and \\, not ${JSON.stringify(want.prefix)}`);
  }
  const prefixBytes = want.prefix === undefined ? null : Buffer.from(want.prefix);
  if (prefixBytes) {
    prefix = allocate(prefixBytes.length);
    bytes.set(prefixBytes, prefix);
  }
  const address = allocate(24);
  words.set([want.fields ? keys.length : -1, items, prefix, prefixBytes?.length ?? 0, table, slots - 1], address / 4);
  return { address };
}

/** A key name's hash, as line-scanner.as.ts takes it while finding the name's end. */
function hashOf(name: Buffer): number {
  let hash = 0;
  for (const c of name) hash = (Math.imul(hash, 31) + c) >>> 0;
  return hash;
}

/**
 * The arena for a line: the resident one, or for a line longer than it holds one of its own with
 * the plans copied in (dropped after the line); null when there is no memory to be had.
 */
function arenaFor(length: number): Arena | null {
  if (length <= RESIDENT_LINE || resident === null) return resident;
  try {
    const arena = new Arena(wasm!, length);
    arena.bytes.set(plans.subarray(0, plansEnd));
    return arena;
  } catch {
    // no memory for this line alone: JSON.parse reads it, or says it cannot
    return null;
  }
}

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
  holder: Json;
  key: number;
  entry: number;
}
const deferred: Deferred[] = [];
/** The containers open while the tape is read, outermost first. */
const open: (Json | unknown[])[] = [];
/** Holds the record while it is built, as an array holds its items. */
const top: unknown[] = [];

/** The sparse object the tape's `count` entries describe; `delta` turns a memory address into a place in `buf`. */
function build(words: Int32Array, count: number, buf: DecodingBuffer, delta: number): Json {
  let deferredCount = 0;
  let depth = 0;
  let holder: Json | unknown[] = top;
  for (let entry = TAPE / 4, last = entry + count * 4; entry < last; entry += 4) {
    const op = words[entry] & 0xff;
    if (op === END) {
      holder = open[--depth];
      continue;
    }
    const key = words[entry + 1];
    let value: unknown;
    if (op === OBJECT) {
      value = {};
    } else if (op === ARRAY) {
      value = [];
    } else if ((words[entry] & DEFERRED) !== 0) {
      const d = deferred[deferredCount++];
      if (d === undefined) deferred.push({ holder: holder as Json, key, entry });
      else {
        d.holder = holder as Json;
        d.key = key;
        d.entry = entry;
      }
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
  const record = top.pop() as Json;
  for (let i = 0; i < deferredCount; i++) {
    const { holder: at, key, entry } = deferred[i];
    if (keyWhens[key]!(at, record)) at[keyNames[key]] = decode(words, entry, buf, delta);
  }
  return record;
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
 * The fields `plan` wants from the JSON object at bytes [start, end) of `buf`, or null when the
 * scanner is unsure of the line: then it is for JSON.parse to read (or reject) whole.
 */
export function scanLine(buf: Buffer, start: number, end: number, plan: Plan): Json | null {
  const arena = arenaFor(end - start);
  if (arena === null) return null;
  const count = arena.scan(buf, start, end, plan);
  if (count < 0) return null;
  try {
    return build(arena.words, count, buf as DecodingBuffer, start - LINE);
  } catch {
    // a kept value JSON.parse rejects: the whole line is parsed, for JSON.parse's own message
    return null;
  } finally {
    // a build cut short leaves its half-made record here
    top.length = 0;
  }
}
