// Tiny typed readers for untrusted JSON. The indexing hot path uses these instead of a zod
// schema: zod cost a quarter of cold-index throughput when measured on real transcripts
// (docs/performance.md), and a record header has only a handful of fields we rely on.

export type Json = Record<string, unknown>;

export const obj = (v: unknown): Json | null => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null);

export const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

export const arr = (v: unknown): unknown[] | null => (Array.isArray(v) ? v : null);

/** RFC 3339 timestamp to epoch ms; null when missing or unparseable. */
export function time(v: unknown): number | null {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : t;
}
