import { crc32 } from 'node:zlib';

// The offset table of one archived transcript: a header naming the transcript (so a lost catalog
// can be rebuilt from the tables alone), then one fixed-size row per compressed chunk. Rows are
// only ever appended; a row that does not check out ends the table, and everything after it is
// what a crash left half-written.

const MAGIC = Buffer.from('LOOMARC1', 'latin1');
/** magic, then the header's JSON length */
const PREAMBLE = MAGIC.length + 4;
export const ROW_BYTES = 32;

export interface TableHeader {
  name: string;
  /** the live file the copy was started from */
  path: string;
  /** ms since the epoch */
  createdAt: number;
}

/** One chunk: raw bytes [rawStart, rawStart + rawLength) of the transcript, compressed at [compStart, compStart + compLength) of the chunk file. */
export interface ChunkRow {
  rawStart: number;
  rawLength: number;
  compStart: number;
  compLength: number;
  /** crc32 of the raw bytes, checked after each decompression */
  rawCrc: number;
}

export function encodeHeader(header: TableHeader): Buffer {
  const json = Buffer.from(JSON.stringify({ codec: 'brotli', ...header }), 'utf8');
  const preamble = Buffer.alloc(PREAMBLE);
  MAGIC.copy(preamble);
  preamble.writeUInt32LE(json.length, MAGIC.length);
  return Buffer.concat([preamble, json]);
}

/** The header and its length in bytes, or null when the file does not start with a whole one. */
export function decodeHeader(file: Buffer): { header: TableHeader; bytes: number } | null {
  if (file.length < PREAMBLE || !file.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  const bytes = PREAMBLE + file.readUInt32LE(MAGIC.length);
  if (file.length < bytes) return null;
  try {
    const value: unknown = JSON.parse(file.toString('utf8', PREAMBLE, bytes));
    if (typeof value !== 'object' || value === null) return null;
    const { name, path, createdAt } = value as Record<string, unknown>;
    if (typeof name !== 'string' || typeof path !== 'string' || typeof createdAt !== 'number') return null;
    return { header: { name, path, createdAt }, bytes };
  } catch {
    return null;
  }
}

export function encodeRow(row: ChunkRow): Buffer {
  const out = Buffer.alloc(ROW_BYTES);
  out.writeBigUInt64LE(BigInt(row.rawStart), 0);
  out.writeUInt32LE(row.rawLength, 8);
  out.writeBigUInt64LE(BigInt(row.compStart), 12);
  out.writeUInt32LE(row.compLength, 20);
  out.writeUInt32LE(row.rawCrc, 24);
  out.writeUInt32LE(crc32(out.subarray(0, 28)), 28);
  return out;
}

/** Row `index` of a buffer of rows (already checked when the table was opened). */
export function rowAt(rows: Buffer, index: number): ChunkRow {
  const at = index * ROW_BYTES;
  return {
    rawStart: Number(rows.readBigUInt64LE(at)),
    rawLength: rows.readUInt32LE(at + 8),
    compStart: Number(rows.readBigUInt64LE(at + 12)),
    compLength: rows.readUInt32LE(at + 20),
    rawCrc: rows.readUInt32LE(at + 24),
  };
}

/**
 * How many leading rows are whole and sound: each checksummed, each continuing the one before
 * (raw and compressed offsets both contiguous from 0), none pointing past the chunk file's end.
 */
export function soundRows(rows: Buffer, chunkFileBytes: number): number {
  let raw = 0;
  let comp = 0;
  const whole = Math.floor(rows.length / ROW_BYTES);
  for (let i = 0; i < whole; i++) {
    const at = i * ROW_BYTES;
    if (rows.readUInt32LE(at + 28) !== crc32(rows.subarray(at, at + 28))) return i;
    const row = rowAt(rows, i);
    if (row.rawStart !== raw || row.compStart !== comp || row.rawLength === 0 || row.compLength === 0) return i;
    if (row.compStart + row.compLength > chunkFileBytes) return i;
    raw += row.rawLength;
    comp += row.compLength;
  }
  return whole;
}

/** The index of the row holding raw byte `offset` (rows sorted by rawStart, offset inside them). */
export function rowHolding(rows: Buffer, count: number, offset: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (Number(rows.readBigUInt64LE(mid * ROW_BYTES)) <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
