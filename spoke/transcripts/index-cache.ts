import { z } from 'zod';
import { moveAside, readFileIfPresent, writeFileAtomic } from '../store/atomic-file';
import { VERSION } from '../version';
import { CachedSession } from './session-codec';

// What the index knew when the kernel last stopped: how far each file was read and the facts of
// each session. A restart with nothing changed reads this instead of every transcript; a file
// that grew is read from where it was left, and its sessions wake on demand.

const CACHE_FORMAT = 10;

const Header = z.object({ format: z.number(), loom: z.string(), root: z.string() });

const IndexCache = z.object({
  format: z.literal(CACHE_FORMAT),
  loom: z.string(),
  root: z.string(),
  files: z.array(z.object({ path: z.string(), offset: z.number(), lines: z.number(), ino: z.number() })),
  /** the id of the usage file beside the cache (LedgerStore) its sessions' usage rows are in */
  ledgers: z.string(),
  sessions: z.array(CachedSession),
  /** per project: summary leafUuid → text, in the order they were read */
  summaries: z.record(z.string(), z.array(z.tuple([z.string(), z.string()]))),
});

export type IndexCache = z.infer<typeof IndexCache>;

/** Where sleeping sessions' usage rows are kept: beside the cache (`index-cache.json` → `index-cache.usage`). */
export const usageFileOf = (cacheFile: string): string => `${cacheFile.replace(/\.json$/, '')}.usage`;
/**
 * The cache for this projects root, or null when there is none, it is for another root or
 * another Loom version (the index format may differ), or it is unreadable (then moved aside).
 */
export function loadIndexCache(path: string, root: string, log: (m: string) => void): IndexCache | null {
  const text = readFileIfPresent(path);
  if (text === null) return null;
  let raw: unknown = null;
  try {
    raw = JSON.parse(text);
  } catch {
    // unreadable: moved aside below
  }
  // Another format, Loom version or projects root is not damage: the cache is just not for us.
  const header = Header.safeParse(raw);
  if (header.success && (header.data.format !== CACHE_FORMAT || header.data.loom !== VERSION || header.data.root !== root)) return null;
  const parsed = IndexCache.safeParse(raw);
  if (!parsed.success) {
    const aside = moveAside(path);
    log(`the index cache ${path} could not be read; moved it to ${aside} and indexing from the transcripts`);
    return null;
  }
  return parsed.data;
}

export interface CacheContents {
  root: string;
  files: IndexCache['files'];
  ledgers: string;
  summaries: IndexCache['summaries'];
  sessions: Iterable<CachedSession>;
}

/** Writes the cache one session at a time: at a gigabyte of transcripts it is tens of megabytes. */
export function saveIndexCache(path: string, cache: CacheContents): void {
  function* parts(): Generator<string> {
    const head = { format: CACHE_FORMAT, loom: VERSION, root: cache.root, files: cache.files, ledgers: cache.ledgers, summaries: cache.summaries };
    yield `${JSON.stringify(head).slice(0, -1)},"sessions":[`;
    let first = true;
    for (const session of cache.sessions) {
      yield `${first ? '' : ','}${JSON.stringify(session)}`;
      first = false;
    }
    yield ']}';
  }
  writeFileAtomic(path, parts());
}
