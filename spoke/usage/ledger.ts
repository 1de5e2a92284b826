import { type MessageUsage, type Tokens, tokensAt } from '../model/usage';
import type { Blobs, StoredBlob } from '../store/blob-store';
import { tokenTotal } from './usage';

// Every API message of a session, once, in columns rather than objects: a gigabyte of
// transcripts holds hundreds of thousands of messages. A sleeping session's ledger is kept in a
// BlobStore on disk and read when a usage question asks. A message is known by its key, a 53-bit
// hash of `message.id:requestId` (messageKey) rather than the 60-character string.

export interface LedgerRow extends Tokens {
  id: number;
  t: number;
  model: string | null;
}

const TOKEN_COLUMNS = 6;
/** model names, shared by every ledger: each row keeps a small index */
const MODELS: (string | null)[] = [null];
const MODEL_INDEX = new Map<string | null, number>([[null, 0]]);

function modelIndex(model: string | null): number {
  let i = MODEL_INDEX.get(model);
  if (i === undefined) {
    i = MODELS.push(model) - 1;
    MODEL_INDEX.set(model, i);
  }
  return i;
}

// FNV-1a twice (two seeds), folded into 53 bits: collisions are negligible at a million keys.
const SEED_A = 0x811c9dc5;
const SEED_B = 0x01000193 ^ 0x5bd1e995;
let hashA = SEED_A;
let hashB = SEED_B;

function feed(text: string): void {
  let a = hashA;
  let b = hashB;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  hashA = a;
  hashB = b;
}

/**
 * An API message's key (MessageUsage): the hash of `message.id:requestId`, or of the line's uuid
 * when either is missing. Taken without joining the strings: a joined string is flattened into a
 * copy of its own when its characters are read.
 */
export function messageKey(id: string | null, requestId: string | null, uuid: string): number {
  hashA = SEED_A;
  hashB = SEED_B;
  if (id && requestId) {
    feed(id);
    feed(':');
    feed(requestId);
  } else feed(uuid);
  return (hashA >>> 0) * 0x200000 + ((hashB >>> 0) >>> 11);
}

/** A ledger's rows in a blob store (float64s, WIDTH per message), with the model names its rows' model column indexes. */
export interface StoredLedger extends StoredBlob {
  models: (string | null)[];
}

const WIDTH = 3 + TOKEN_COLUMNS;
const ROW_BYTES = WIDTH * 8;
// the columns of every ledger with no row in memory: a restart makes thousands of ledgers
const NO_F64 = new Float64Array(0);
const NO_U16 = new Uint16Array(0);
/**
 * Rows a ledger first makes room for: a session's messages come one at a time, and growing from
 * one row by doubling allocated its four columns again and again (1 % of a cold index's CPU).
 */
const FIRST_ROWS = 64;

export class MessageLedger {
  /** its rows in the store, while they are the same as in memory (or there are none in memory) */
  private saved: { store: Blobs; rows: StoredLedger } | null = null;
  /** whether the columns below hold the rows; false while they are only in the store */
  private resident = true;
  private rows = new Map<number, number>();
  // empty until the first row: most ledgers of a restart stay in the store and never need them
  private ids = NO_F64;
  private times = NO_F64;
  private models = NO_U16;
  private tokens = NO_F64;

  /** A ledger whose rows are in the store: read when something asks, kept in memory only when added to. */
  static stored(store: Blobs, rows: StoredLedger): MessageLedger {
    const ledger = new MessageLedger();
    ledger.saved = { store, rows };
    ledger.resident = false;
    return ledger;
  }

  get size(): number {
    return this.resident ? this.rows.size : this.saved!.rows.bytes / ROW_BYTES;
  }

  /** Adds a copy of a message; of two copies the one with the larger total counts. */
  add(message: MessageUsage): void {
    this.load();
    this.saved = null;
    this.put(message.key, message.t, message.model, message);
  }

  *entries(): IterableIterator<LedgerRow> {
    if (this.resident) {
      for (const row of this.rows.values()) yield this.row(row);
      return;
    }
    const { store, rows } = this.saved!;
    const values = valuesOf(store, rows);
    for (let k = 0; k + WIDTH <= values.length; k += WIDTH) yield unpackRow(values, k, rows.models);
  }

  /** Where its rows are in the store (written there now if they changed): what the index cache keeps. */
  save(store: Blobs): StoredLedger {
    if (this.saved?.store !== store) this.saved = { store, rows: { ...this.packed(store), models: this.usedModels() } };
    return this.saved.rows;
  }

  /** Its rows are kept in the store only, until something adds to them (a session fell asleep). */
  spill(store: Blobs): void {
    this.save(store);
    this.resident = false;
    this.rows = new Map();
    this.ids = NO_F64;
    this.times = NO_F64;
    this.models = NO_U16;
    this.tokens = NO_F64;
  }

  /** The rows in the store, when it holds them (a store being compacted moves them). */
  storedRows(): StoredLedger | null {
    return this.saved?.rows ?? null;
  }

  private usedModels(): (string | null)[] {
    return [...new Set([...this.rows.values()].map((r) => MODELS[this.models[r]]))];
  }

  /** The rows as float64s, WIDTH per message, written to the ledger's store. */
  private packed(store: Blobs): StoredBlob {
    const local = new Map(this.usedModels().map((m, i) => [m, i]));
    const out = new Float64Array(this.rows.size * WIDTH);
    let k = 0;
    for (const r of this.rows.values()) {
      out[k++] = this.ids[r];
      out[k++] = this.times[r];
      out[k++] = local.get(MODELS[this.models[r]])!;
      for (let c = 0; c < TOKEN_COLUMNS; c++) out[k++] = this.tokens[r * TOKEN_COLUMNS + c];
    }
    return out.length === 0 ? { at: 0, bytes: 0 } : store.append(new Uint8Array(out.buffer));
  }

  /** Reads the rows back from the store into the columns, before they change. */
  private load(): void {
    if (this.resident) return;
    this.resident = true;
    const { store, rows } = this.saved!;
    const values = valuesOf(store, rows);
    const models = rows.models.map(modelIndex);
    const n = Math.floor(values.length / WIDTH);
    this.grow(n);
    for (let row = 0, k = 0; row < n; row++, k += WIDTH) {
      this.rows.set(values[k], row);
      this.ids[row] = values[k];
      this.times[row] = values[k + 1];
      this.models[row] = models[values[k + 2]] ?? 0;
      this.tokens.set(values.subarray(k + 3, k + WIDTH), row * TOKEN_COLUMNS);
    }
  }

  private put(id: number, t: number, model: string | null, tokens: Tokens): void {
    const existing = this.rows.get(id);
    if (existing !== undefined) {
      // Of two copies of one message the larger counts (early copies carry partial output).
      if (tokenTotal(tokens) > this.totalAt(existing)) this.write(existing, id, t, model, tokens);
      return;
    }
    const row = this.rows.size;
    this.grow(row + 1);
    this.rows.set(id, row);
    this.write(row, id, t, model, tokens);
  }

  private write(row: number, id: number, t: number, model: string | null, tokens: Tokens): void {
    this.ids[row] = id;
    this.times[row] = t;
    this.models[row] = modelIndex(model);
    const base = row * TOKEN_COLUMNS;
    this.tokens[base] = tokens.input;
    this.tokens[base + 1] = tokens.output;
    this.tokens[base + 2] = tokens.cacheWrite;
    this.tokens[base + 3] = tokens.cacheWrite5m;
    this.tokens[base + 4] = tokens.cacheWrite1h;
    this.tokens[base + 5] = tokens.cacheRead;
  }

  /** tokenTotal of a row, from its columns: a message's later lines repeat its usage, and each is compared so */
  private totalAt(r: number): number {
    const base = r * TOKEN_COLUMNS;
    return this.tokens[base] + this.tokens[base + 1] + this.tokens[base + 2] + this.tokens[base + 5];
  }

  private row(r: number): LedgerRow {
    return { id: this.ids[r], t: this.times[r], model: MODELS[this.models[r]], ...tokensAt(this.tokens, r * TOKEN_COLUMNS) };
  }

  private grow(rows: number): void {
    if (rows <= this.ids.length) return;
    const capacity = Math.max(rows, this.ids.length * 2, FIRST_ROWS);
    this.ids = grown(this.ids, capacity);
    this.times = grown(this.times, capacity);
    const models = new Uint16Array(capacity);
    models.set(this.models);
    this.models = models;
    this.tokens = grown(this.tokens, capacity * TOKEN_COLUMNS);
  }
}

function grown(old: Float64Array, length: number): Float64Array<ArrayBuffer> {
  const next = new Float64Array(length);
  next.set(old);
  return next;
}

/** A ledger's rows as stored: float64s, WIDTH per message. */
function valuesOf(store: Blobs, rows: StoredBlob): Float64Array {
  const bytes = store.read(rows);
  return new Float64Array(bytes.buffer, 0, Math.floor(bytes.length / 8));
}

/** One stored row as a LedgerRow (`models` names the row's model index). */
function unpackRow(values: Float64Array, k: number, models: (string | null)[]): LedgerRow {
  return { id: values[k], t: values[k + 1], model: models[values[k + 2]] ?? null, ...tokensAt(values, k + 3) };
}
