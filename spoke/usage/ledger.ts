import type { MessageUsage, Tokens } from '../model/usage';
import { tokenTotal } from './usage';

// Every API message of a session, once, in columns rather than objects: a gigabyte of
// transcripts holds hundreds of thousands of messages, and each stays in memory for as long as
// the kernel runs (usage queries need them, asleep or awake). A message is known by a 53-bit
// hash of its `message.id:requestId` key instead of the 60-character string.

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

/** FNV-1a twice (two seeds), folded into 53 bits: collisions are negligible at a million keys. */
export function keyHash(key: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < key.length; i++) {
    const c = key.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) >>> 11);
}

export class MessageLedger {
  /** rows still packed as the index cache stored them: unpacked when first used */
  private stored: { models: (string | null)[]; data: string } | null = null;
  private readonly rows = new Map<number, number>();
  private ids = new Float64Array(16);
  private times = new Float64Array(16);
  private models = new Uint16Array(16);
  private tokens = new Float64Array(16 * TOKEN_COLUMNS);

  /** A ledger from the index cache, unpacked only when something reads or adds to it. */
  static packed(packed: { models: (string | null)[]; data: string }): MessageLedger {
    const ledger = new MessageLedger();
    ledger.stored = packed;
    return ledger;
  }

  get size(): number {
    this.unpackStored();
    return this.rows.size;
  }

  /** Adds a copy of a message; of two copies the one with the larger total counts. */
  add(message: MessageUsage): void {
    this.unpackStored();
    this.put(keyHash(message.key), message.t, message.model, message);
  }

  *entries(): IterableIterator<LedgerRow> {
    this.unpackStored();
    for (const row of this.rows.values()) yield this.row(row);
  }

  /** The ledger as one compact string, for the index cache. */
  pack(): { models: (string | null)[]; data: string } {
    if (this.stored) return this.stored;
    const n = this.rows.size;
    const used = [...new Set([...this.rows.values()].map((r) => this.models[r]))];
    const local = new Map(used.map((m, i) => [m, i]));
    const out = new Float64Array(n * (3 + TOKEN_COLUMNS));
    let k = 0;
    for (const r of this.rows.values()) {
      out[k++] = this.ids[r];
      out[k++] = this.times[r];
      out[k++] = local.get(this.models[r])!;
      for (let c = 0; c < TOKEN_COLUMNS; c++) out[k++] = this.tokens[r * TOKEN_COLUMNS + c];
    }
    return { models: used.map((m) => MODELS[m]), data: Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('base64') };
  }

  private unpackStored(): void {
    if (!this.stored) return;
    const packed = this.stored;
    this.stored = null;
    this.fill(packed);
  }

  private fill(packed: { models: (string | null)[]; data: string }): void {
    const bytes = Buffer.from(packed.data, 'base64');
    const values = new Float64Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
    const width = 3 + TOKEN_COLUMNS;
    const n = Math.floor(values.length / width);
    const models = packed.models.map(modelIndex);
    // Straight into the columns, without an object per message.
    this.grow(n);
    for (let row = 0, k = 0; row < n; row++, k += width) {
      this.rows.set(values[k], row);
      this.ids[row] = values[k];
      this.times[row] = values[k + 1];
      this.models[row] = models[values[k + 2]] ?? 0;
      this.tokens.set(values.subarray(k + 3, k + width), row * TOKEN_COLUMNS);
    }
  }

  private put(id: number, t: number, model: string | null, tokens: Tokens): void {
    const existing = this.rows.get(id);
    if (existing !== undefined) {
      // Of two copies of one message the larger counts (early copies carry partial output).
      if (tokenTotal(tokens) > tokenTotal(this.row(existing))) this.write(existing, id, t, model, tokens);
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

  private row(r: number): LedgerRow {
    const base = r * TOKEN_COLUMNS;
    const k = this.tokens;
    return {
      id: this.ids[r],
      t: this.times[r],
      model: MODELS[this.models[r]],
      input: k[base],
      output: k[base + 1],
      cacheWrite: k[base + 2],
      cacheWrite5m: k[base + 3],
      cacheWrite1h: k[base + 4],
      cacheRead: k[base + 5],
    };
  }

  private grow(rows: number): void {
    if (rows <= this.ids.length) return;
    const capacity = Math.max(rows, this.ids.length * 2);
    const resize = <T extends Float64Array | Uint16Array>(old: T, length: number): T => {
      const next = new (old.constructor as new (n: number) => T)(length);
      next.set(old);
      return next;
    };
    this.ids = resize(this.ids, capacity);
    this.times = resize(this.times, capacity);
    this.models = resize(this.models, capacity);
    this.tokens = resize(this.tokens, capacity * TOKEN_COLUMNS);
  }
}
