// AssemblyScript, compiled to WebAssembly by `npm run build:scanner` into line-scanner-wasm.ts.
// The walk of line-scanner.ts over one JSON line's bytes: it checks every byte JSON.parse would
// check, steps over what the plan does not want (a string's body sixteen bytes at a time) and
// writes what it does want to a tape, which line-scanner.ts turns into the line's values. It
// decodes nothing: a tape entry says where a value's bytes are and what they hold.
//
// Memory is imported, laid out by line-scanner-memory.ts: the plans line-scanner-plans.ts wrote,
// the tape, the line. A plan is six words: its key count (-1 when it reads no object), its items'
// plan (0: none), its prefix's address and length (0: none), its keys' hash table (a key's
// address by its name's hash, open addressing; 0 ends a probe) and that table's size less one. A
// key is five words: its name's address and length, its value's plan, its number on the tape, and
// 1 when its value is deferred.

const QUOTE: u32 = 0x22;
const BACKSLASH: u32 = 0x5c;
const LBRACE: u32 = 0x7b;
const RBRACE: u32 = 0x7d;
const LBRACKET: u32 = 0x5b;
const RBRACKET: u32 = 0x5d;
const COLON: u32 = 0x3a;
const COMMA: u32 = 0x2c;
const MINUS: u32 = 0x2d;
const PLUS: u32 = 0x2b;
const DOT: u32 = 0x2e;
const ZERO: u32 = 0x30;
const NINE: u32 = 0x39;
/** what `at` answers past the line's end: no byte */
const PAST_END: u32 = 0x100;
/** Deeper than this the line is parsed whole: real transcripts nest far less. */
const MAX_DEPTH: i32 = 64;

// Tape entries: four words (op and flags, key, from, to). Keep in step with line-scanner.ts.
const OBJECT: u32 = 1;
const ARRAY: u32 = 2;
const END: u32 = 3;
const STRING: u32 = 4;
const NUMBER: u32 = 5;
const TRUE: u32 = 6;
const FALSE: u32 = 7;
const NULL: u32 = 8;
const WHOLE: u32 = 9;
const ABSENT: u32 = 10;
const DEFERRED: u32 = 1 << 8;
const ESCAPED: u32 = 1 << 9;
const HIGH: u32 = 1 << 10;
/** The escapes backslash, b, f, n, r and t, as bits counted from the backslash (the others: quote, slash, u). */
const LETTER_ESCAPES: u32 = 1 | (1 << (0x62 - 0x5c)) | (1 << (0x66 - 0x5c)) | (1 << (0x6e - 0x5c)) | (1 << (0x72 - 0x5c)) | (1 << (0x74 - 0x5c));
const ENTRY: usize = 16;

let end: usize = 0;
let tape: usize = 0;
let tapeEnd: usize = 0;
let tapeFull = false;
let keyHash: u32 = 0;
/** arrays open around the value being read: outside them an object's start and end go on the tape only as far as line-scanner.ts needs them */
let arrays: i32 = 0;

/**
 * Reads the JSON object at [start, stop) by the plan at `plan`, writing entries from `tapeStart`
 * up to `tapeStop`. Returns how many, or -1 when unsure (the line is for JSON.parse).
 */
export function scan(plan: usize, start: usize, stop: usize, tapeStart: usize, tapeStop: usize): i32 {
  end = stop;
  tape = tapeStart;
  tapeEnd = tapeStop;
  tapeFull = false;
  arrays = 0;
  const p = ws(start);
  if (at(p) !== LBRACE || load<i32>(plan) < 0) return -1;
  const to = object(p, plan, 0, -1);
  if (to < 0 || tapeFull || ws(<usize>to) !== end) return -1;
  return <i32>((tape - tapeStart) / ENTRY);
}

function emit(op: u32, key: i32, from: usize, to: usize): void {
  if (tape + ENTRY > tapeEnd) {
    tapeFull = true;
    return;
  }
  store<u32>(tape, op);
  store<i32>(tape, key, 4);
  store<u32>(tape, <u32>from, 8);
  store<u32>(tape, <u32>to, 12);
  tape += ENTRY;
}

function at(p: usize): u32 {
  return p < end ? <u32>load<u8>(p) : PAST_END;
}

function ws(p: usize): usize {
  while (p < end) {
    const c = <u32>load<u8>(p);
    // past space, no byte is white space: one comparison for the token after it (lines have no spaces between tokens)
    if (c > 0x20 || (c !== 0x20 && c !== 0x09 && c !== 0x0d && c !== 0x0a)) break;
    p++;
  }
  return p;
}

/** An object read sparsely; `p` is at its `{`. Returns where it ends, or -1. */
function object(p: usize, plan: usize, depth: i32, key: i32): isize {
  // outside arrays, an object read is kept by its key (the line itself has none) and needs no end:
  // a third of a line's entries were these ends
  const ends = arrays > 0;
  if (ends || key >= 0) emit(OBJECT, key, 0, 0);
  p = ws(p + 1);
  if (at(p) === RBRACE) {
    if (ends) emit(END, -1, 0, 0);
    return <isize>(p + 1);
  }
  const table = <usize>load<u32>(plan, 16);
  const mask = load<u32>(plan, 20);
  while (true) {
    if (at(p) !== QUOTE) return -1;
    const close = keyEnd(p + 1);
    if (close < 0) return -1;
    const wanted = keyAt(table, mask, p + 1, <usize>close);
    p = ws(<usize>close + 1);
    if (at(p) !== COLON) return -1;
    const from = ws(p + 1);
    let to: isize;
    if (wanted === 0) to = skip(from, depth + 1);
    else if (load<u32>(wanted, 16) !== 0) to = whole(from, depth + 1, load<i32>(wanted, 12), DEFERRED);
    else to = read(from, <usize>load<u32>(wanted, 8), depth + 1, load<i32>(wanted, 12));
    if (to < 0) return -1;
    p = ws(<usize>to);
    const c = at(p);
    if (c === COMMA) {
      p = ws(p + 1);
    } else if (c === RBRACE) {
      if (ends) emit(END, -1, 0, 0);
      return <isize>(p + 1);
    } else {
      return -1;
    }
  }
}

function array(p: usize, items: usize, depth: i32, key: i32): isize {
  emit(ARRAY, key, 0, 0);
  p = ws(p + 1);
  if (at(p) === RBRACKET) {
    emit(END, -1, 0, 0);
    return <isize>(p + 1);
  }
  arrays++;
  while (true) {
    const to = read(p, items, depth + 1, -1);
    if (to < 0) return -1;
    p = ws(<usize>to);
    const c = at(p);
    if (c === COMMA) {
      p = ws(p + 1);
    } else if (c === RBRACKET) {
      arrays--;
      emit(END, -1, 0, 0);
      return <isize>(p + 1);
    } else {
      return -1;
    }
  }
}

/** A wanted value: as far as the plan describes it, else whole. */
function read(p: usize, plan: usize, depth: i32, key: i32): isize {
  if (depth > MAX_DEPTH) return -1;
  const c = at(p);
  if (c === LBRACE && load<i32>(plan) >= 0) return object(p, plan, depth, key);
  const items = <usize>load<u32>(plan, 4);
  if (c === LBRACKET && items !== 0) return array(p, items, depth, key);
  const prefix = <usize>load<u32>(plan, 8);
  if (c === QUOTE && prefix !== 0) {
    const starts = startsWith(p + 1, prefix, <usize>load<u32>(plan, 12));
    if (starts < 0) return -1;
    if (starts === 0) {
      emit(ABSENT, key, 0, 0);
      return skipString(p);
    }
  }
  return whole(p, depth, key, 0);
}

/** Any value, for JSON.parse's reading of it. */
function whole(p: usize, depth: i32, key: i32, flags: u32): isize {
  const c = at(p);
  if (c === QUOTE) return string(p, key, flags);
  if (c === LBRACE || c === LBRACKET) {
    const to = skip(p, depth);
    if (to >= 0) emit(WHOLE | flags, key, p, <usize>to);
    return to;
  }
  if (c === MINUS || (c >= ZERO && c <= NINE)) {
    const to = skipNumber(p);
    if (to >= 0) emit(NUMBER | flags, key, p, <usize>to);
    return to;
  }
  return literal(p, true, key, flags);
}

/** Which of sixteen bytes stop a string's or key's walk (a quote, a backslash, a raw control byte), as bits. */
function stopsIn(v: v128): i32 {
  return i8x16.bitmask(v128.or(v128.or(i8x16.eq(v, i8x16.splat(<i8>QUOTE)), i8x16.eq(v, i8x16.splat(<i8>BACKSLASH))), i8x16.lt_u(v, i8x16.splat(0x20))));
}

/**
 * A kept string: its body's bounds, marked ESCAPED when it holds an escape (JSON.parse decodes
 * it) and HIGH when it holds a byte past ASCII; -1 where JSON.parse would reject it.
 */
function string(p: usize, key: i32, flags: u32): isize {
  let high: u32 = 0;
  let i = p + 1;
  while (true) {
    let c: u32;
    if (i + 16 <= end) {
      const v = v128.load(i);
      const stops = stopsIn(v);
      const highs = i8x16.bitmask(v);
      if (stops === 0) {
        high |= highs;
        i += 16;
        continue;
      }
      const first = ctz(stops);
      high |= highs & ((1 << first) - 1);
      i += first;
      c = <u32>load<u8>(i);
    } else {
      if (i >= end) return -1;
      c = <u32>load<u8>(i);
      if (c !== QUOTE && c !== BACKSLASH && c >= 0x20) {
        high |= c & 0x80;
        i++;
        continue;
      }
    }
    if (c === QUOTE) {
      emit(STRING | flags | (high !== 0 ? HIGH : 0), key, p + 1, i);
      return <isize>(i + 1);
    }
    // a raw control byte, or an escape JSON does not have: JSON.parse rejects the line
    const length = c === BACKSLASH ? escapeLength(i) : -1;
    if (length < 0) return -1;
    // on from past the escape (skipString starts after the byte it is given)
    const to = skipString(i + <usize>length - 1);
    if (to >= 0) emit(STRING | flags | ESCAPED, key, p + 1, <usize>to - 1);
    return to;
  }
}

/**
 * Where a key's closing quote is; -1 for a key with an escape (JSON.parse compares those) or a
 * raw control byte. Leaves the key's hash in `keyHash`. A key shorter than sixteen bytes (nearly
 * every one) is found in one step of sixteen, as a string's body is.
 */
function keyEnd(p: usize): isize {
  let i = p;
  while (i + 16 <= end) {
    const v = v128.load(i);
    const stops = stopsIn(v);
    if (stops === 0) {
      i += 16;
      continue;
    }
    i += ctz(stops);
    if (<u32>load<u8>(i) !== QUOTE) return -1;
    keyHash = nameHash(p, i - p);
    return <isize>i;
  }
  for (; i < end; i++) {
    const c = <u32>load<u8>(i);
    if (c === QUOTE) {
      keyHash = nameHash(p, i - p);
      return <isize>i;
    }
    if (c === BACKSLASH || c < 0x20) return -1;
  }
  return -1;
}

/**
 * A key name's hash from its length and its first and last two bytes, which tell apart the names
 * of a plan (line-scanner-plans.ts takes it the same way); a name it does not tell apart is
 * still found, a slot further on.
 */
function nameHash(from: usize, length: usize): u32 {
  if (length === 0) return 0;
  const last = from + length - 1;
  const second = length > 1 ? from + 1 : from;
  const beforeLast = length > 1 ? last - 1 : last;
  const bytes = <u32>load<u8>(from) | ((<u32>load<u8>(second)) << 8) | ((<u32>load<u8>(beforeLast)) << 16) | ((<u32>load<u8>(last)) << 24);
  const hash = (bytes ^ (<u32>length * 0x9e3779b1)) * 0x85ebca6b;
  return hash ^ (hash >> 15);
}

/** The plan's key for the name at [from, to), found by `keyHash` in the plan's table; or 0. */
function keyAt(table: usize, mask: u32, from: usize, to: usize): usize {
  const length = to - from;
  let slot = keyHash & mask;
  while (true) {
    const key = <usize>load<u32>(table + ((<usize>slot) << 2));
    if (key === 0) return 0;
    if (<usize>load<u32>(key, 4) === length && sameBytes(<usize>load<u32>(key), from, length)) return key;
    slot = (slot + 1) & mask;
  }
}

/** Whether `length` bytes at `a` and at `b` are the same: eight at a time, then one at a time, never past either. */
function sameBytes(a: usize, b: usize, length: usize): bool {
  let i: usize = 0;
  for (; i + 8 <= length; i += 8) if (load<u64>(a + i) !== load<u64>(b + i)) return false;
  for (; i < length; i++) if (load<u8>(a + i) !== load<u8>(b + i)) return false;
  return true;
}

/**
 * Whether the string whose body starts at `p` starts with the prefix (printable ASCII, no quote or
 * backslash): 1, 0, or -1 when unsure, at an escape that may stand for the prefix's next character.
 */
function startsWith(p: usize, prefix: usize, length: usize): i32 {
  for (let i: usize = 0; i < length; i++) {
    const c = at(p + i);
    const expected = <u32>load<u8>(prefix + i);
    if (c === expected) continue;
    // a byte written as itself that differs, or the closing quote: the string differs there
    if (c !== BACKSLASH) return 0;
    // only `\/` and `\u` escapes can stand for a printable character (the others for `"`, `\\` or a control)
    const escaped = at(p + i + 1);
    const stands = escaped === 0x2f ? 0x2f : escaped === 0x75 ? hex4(p + i + 2) : 0;
    return stands === expected || stands < 0 ? -1 : 0;
  }
  return 1;
}

/** The value of four hex digits at `p`, or -1. */
function hex4(p: usize): i32 {
  let value: i32 = 0;
  for (let i: usize = 0; i < 4; i++) {
    const c = at(p + i);
    const digit = c >= ZERO && c <= NINE ? c - ZERO : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x61 + 10 : 16;
    if (digit === 16) return -1;
    value = (value << 4) | <i32>digit;
  }
  return value;
}

/** Steps over any value, checking the grammar outside strings. Returns where it ends, or -1. */
function skip(p: usize, depth: i32): isize {
  const c = at(p);
  if (c === QUOTE) return skipString(p);
  if (c === LBRACE || c === LBRACKET) return depth > MAX_DEPTH ? -1 : skipContainer(p, c === LBRACE, depth);
  if (c === MINUS || (c >= ZERO && c <= NINE)) return skipNumber(p);
  return literal(p, false, -1, 0);
}

function skipContainer(p: usize, isObject: bool, depth: i32): isize {
  const close = isObject ? RBRACE : RBRACKET;
  p = ws(p + 1);
  if (at(p) === close) return <isize>(p + 1);
  while (true) {
    if (isObject) {
      if (at(p) !== QUOTE) return -1;
      const key = skipString(p);
      if (key < 0) return -1;
      p = ws(<usize>key);
      if (at(p) !== COLON) return -1;
      p = ws(p + 1);
    }
    const to = skip(p, depth + 1);
    if (to < 0) return -1;
    p = ws(<usize>to);
    const c = at(p);
    if (c === close) return <isize>(p + 1);
    if (c !== COMMA) return -1;
    p = ws(p + 1);
  }
}

/**
 * `p` is at the opening quote; returns just past the closing one, or -1 where JSON.parse would
 * reject the string (a raw control byte, an escape it does not know): a line is never read here
 * that JSON.parse rejects, so a broken one is reported as JSON.parse reports it.
 */
function skipString(p: usize): isize {
  let i = p + 1;
  while (true) {
    let c: u32;
    if (i + 16 <= end) {
      const v = v128.load(i);
      const stops = stopsIn(v);
      if (stops === 0) {
        i += 16;
        continue;
      }
      i += ctz(stops);
      c = <u32>load<u8>(i);
    } else {
      if (i >= end) return -1;
      c = <u32>load<u8>(i);
      if (c !== QUOTE && c !== BACKSLASH && c >= 0x20) {
        i++;
        continue;
      }
    }
    if (c === QUOTE) return <isize>(i + 1);
    if (c !== BACKSLASH) return -1;
    const e = at(i + 1);
    if (e === 0x75) {
      if (hex4(i + 2) < 0) return -1;
      i += 6;
      continue;
    }
    if (e !== QUOTE && e !== 0x2f && (e < BACKSLASH || e > 0x74 || ((LETTER_ESCAPES >> (e - BACKSLASH)) & 1) === 0)) return -1;
    i += 2;
  }
}

/** The length of the escape at `p` (its backslash), or -1 for one JSON does not have. */
function escapeLength(p: usize): isize {
  const c = at(p + 1);
  if (c === 0x75) return hex4(p + 2) < 0 ? -1 : 6;
  // " \ / b f n r t
  return c === QUOTE || c === BACKSLASH || c === 0x2f || c === 0x62 || c === 0x66 || c === 0x6e || c === 0x72 || c === 0x74 ? 2 : -1;
}

/** JSON's number grammar: -?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)? */
function skipNumber(p: usize): isize {
  if (at(p) === MINUS) p++;
  const first = at(p);
  if (first === ZERO) p++;
  else if (first > ZERO && first <= NINE) p = digits(p);
  else return -1;
  if (at(p) === DOT) {
    const after = digits(p + 1);
    if (after === p + 1) return -1;
    p = after;
  }
  const e = at(p);
  if (e === 0x65 || e === 0x45) {
    p++;
    const sign = at(p);
    if (sign === PLUS || sign === MINUS) p++;
    const after = digits(p);
    if (after === p) return -1;
    p = after;
  }
  return <isize>p;
}

function digits(p: usize): usize {
  while (true) {
    const c = at(p);
    if (c < ZERO || c > NINE) return p;
    p++;
  }
}

/** true, false or null: kept (an entry for `key`) or stepped over. */
function literal(p: usize, keep: bool, key: i32, flags: u32): isize {
  const c = at(p);
  let length: usize = 4;
  let op: u32;
  // each word's bytes, little-endian
  let word: u32;
  if (c === 0x74) {
    op = TRUE;
    word = 0x65757274;
  } else if (c === 0x6e) {
    op = NULL;
    word = 0x6c6c756e;
  } else if (c === 0x66) {
    if (p + 5 > end || load<u8>(p + 4) !== 0x65) return -1;
    op = FALSE;
    word = 0x736c6166;
    length = 5;
  } else {
    return -1;
  }
  if (p + length > end || load<u32>(p) !== word) return -1;
  if (keep) emit(op | flags, key, p, p + length);
  return <isize>(p + length);
}
