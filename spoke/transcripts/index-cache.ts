import { asciiJson } from '../store/ascii-json';
import { moveAside, readFileIfPresent, writeFileAtomic } from '../store/atomic-file';
import { array, type Checked, literal, number, object, record, string, tuple } from '../store/json-check';
import { VERSION } from '../version';
import { CachedSession } from './session-codec';

// What the index knew when the kernel last stopped: how far each file was read and the facts of
// each session. A restart with nothing changed reads this instead of every transcript; a file
// that grew is read from where it was left, and its sessions wake on demand.

const CACHE_FORMAT = 12;

const Header = object({ format: number, loom: string, root: string });

const IndexCache = object({
  format: literal(CACHE_FORMAT),
  loom: string,
  root: string,
  files: array(object({ path: string, offset: number, lines: number, ino: number })),
  /** the id of the file beside the cache (BlobStore) its sessions' usage rows and goals are in */
  blobs: string,
  sessions: array(CachedSession),
  /** per project: summary leafUuid → text, in the order they were read */
  summaries: record(array(tuple(string, string))),
});

export type IndexCache = Checked<typeof IndexCache>;

/** Where sleeping sessions' usage rows and goals are kept: beside the cache (`index-cache.json` → `index-cache.blobs`). */
export const blobFileOf = (cacheFile: string): string => `${cacheFile.replace(/\.json$/, '')}.blobs`;
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
  if (Header(raw) && (raw.format !== CACHE_FORMAT || raw.loom !== VERSION || raw.root !== root)) return null;
  if (IndexCache(raw)) return raw;
  const aside = moveAside(path);
  log(`the index cache ${path} could not be read; moved it to ${aside} and indexing from the transcripts`);
  return null;
}

export interface CacheContents {
  root: string;
  files: IndexCache['files'];
  blobs: string;
  summaries: IndexCache['summaries'];
  sessions: Iterable<CachedSession>;
}

/** Writes the cache one session at a time (at a gigabyte of transcripts it is megabytes), in ASCII (ascii-json.ts). */
export function saveIndexCache(path: string, cache: CacheContents): void {
  function* parts(): Generator<string> {
    const head = { format: CACHE_FORMAT, loom: VERSION, root: cache.root, files: cache.files, blobs: cache.blobs, summaries: cache.summaries };
    yield `${asciiJson(head).slice(0, -1)},"sessions":[`;
    let first = true;
    for (const session of cache.sessions) {
      yield `${first ? '' : ','}${asciiJson(session)}`;
      first = false;
    }
    yield ']}';
  }
  writeFileAtomic(path, parts());
}
