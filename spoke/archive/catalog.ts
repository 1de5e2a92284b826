import { createHash } from 'node:crypto';
import { join } from 'node:path';
import * as z from 'zod';
import type { DroppedCounts } from '../model/archive';
import { jsonOrNull } from '../model/json';
import { moveAside, readFileIfPresent, writeFileAtomic } from '../store/atomic-file';

// The archive's catalog: what the per-transcript files cannot say for themselves (when each copy
// was last written to, the hash of its first bytes, what the cap has dropped so far). Names map
// to files by hash, so a transcript's path never becomes a file name. Every copy's own table
// names its transcript, so a catalog that is lost or unreadable is rebuilt from the tables; only
// the cap's counters start again from zero.

export const CATALOG_FORMAT = 1;

const Head = z.object({ length: z.number().int().nonnegative(), sha256: z.string() });
export type Head = z.infer<typeof Head>;

const CatalogEntry = z.object({
  name: z.string().min(1),
  path: z.string(),
  head: Head.nullable(),
  copiedAt: z.number(),
});
export type CatalogEntry = z.infer<typeof CatalogEntry>;

const Dropped = z.object({
  files: z.number().int().nonnegative(),
  bytes: z.number().nonnegative(),
  archiveOnly: z.number().int().nonnegative(),
}) satisfies z.ZodType<DroppedCounts>;

const CatalogFile = z.object({
  format: z.literal(CATALOG_FORMAT),
  transcripts: z.array(CatalogEntry),
  dropped: Dropped,
});
export type CatalogFile = z.infer<typeof CatalogFile>;

export const catalogPath = (dir: string): string => join(dir, 'catalog.json');

/** The stem of a transcript's files: a hash of its name, never the name itself. */
export const fileIdFor = (name: string): string => createHash('sha256').update(name).digest('hex').slice(0, 32);

export const noneDropped = (): DroppedCounts => ({ files: 0, bytes: 0, archiveOnly: 0 });

/** The catalog, or null when there is none yet or it could not be read (then moved aside, with one log line). */
export function readCatalog(dir: string, log: (message: string) => void): CatalogFile | null {
  const path = catalogPath(dir);
  const text = readFileIfPresent(path);
  if (text === null) return null;
  const parsed = CatalogFile.safeParse(jsonOrNull(text));
  if (parsed.success) return parsed.data;
  const aside = moveAside(path);
  log(`archive: the catalog could not be read, so it was moved to ${aside} and is rebuilt from the copies' own tables`);
  return null;
}

export function writeCatalog(dir: string, catalog: CatalogFile): void {
  writeFileAtomic(catalogPath(dir), JSON.stringify(catalog));
}
