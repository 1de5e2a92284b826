import { BlobBuffer } from '../store/blob-buffer';
import { SessionCatalog } from './catalog';
import type { IndexCache } from './index-cache';
import type { TranscriptPlace } from './paths';
import type { CachedSession } from './session-codec';
import { FileTail, type TailState } from './tail';

// What an index worker does with a project: reads the files of it the kernel's thread has not,
// in the kernel's order, into a catalog of its own, and hands back what the index cache would
// keep of them (how far each file was read, its sessions asleep, the project's summaries), which
// the kernel's thread takes in as a warm restart takes in the cache. Nothing per line crosses
// between threads.

/**
 * A longer line leaves the project to the kernel's thread: what it parses to could pass the
 * worker's heap, and a worker out of heap can take the whole process with it.
 */
export const HANDOVER_BYTES = 4 << 20;

export interface ProjectFile {
  path: string;
  place: TranscriptPlace;
}

/** A project's files the kernel's thread left to a worker, and the summaries it read of the project before. */
export interface ProjectWork {
  project: string;
  /** in the order the kernel's thread would read them */
  files: ProjectFile[];
  summaries: [string, string][];
  /** the kernel catalog's: sessions fall asleep here when they would there */
  awakeLimit: number;
  /** one portion of a project cut in several (index-portions.ts): its sessions' paths are handed back hashed (summary-reach.ts) */
  cut: boolean;
}

export interface IndexedProject {
  /** how far each file was read (a file missing when its turn came has none) */
  files: (TailState & { path: string })[];
  sessions: CachedSession[];
  summaries: IndexCache['summaries'];
  /** the blobs the sessions refer to, end to end (BlobBuffer) */
  blobs: Uint8Array;
  /** the Claude Code session ids whose session key was asked (taken as their own: the kernel's thread checks they still are) */
  asked: string[];
  /** of a cut project's portion: each session's path's atoms, hashed (summary-reach.ts); else none */
  paths: [string, Uint32Array][];
}

export async function indexProject(work: ProjectWork): Promise<IndexedProject> {
  const asked = new Set<string>();
  const catalog = new SessionCatalog('', work.awakeLimit, (id) => {
    asked.add(id);
    return id;
  });
  const blobs = new BlobBuffer();
  catalog.adopt([], { [work.project]: work.summaries }, blobs);
  if (work.cut) catalog.keepPathsOf(new Set([work.project]));
  const files: IndexedProject['files'] = [];
  // A session falls asleep once read; but one with a file still to come here (a `loom run`
  // session's next Claude Code file) stays awake until it is read: this catalog cannot wake it.
  const lastFileOf = new Map(work.files.map(({ place }, i) => [place.sessionKey, i]));
  for (const [i, { path, place }] of work.files.entries()) {
    const tail = new FileTail(path);
    const ingest = catalog.openFile(path, place, false);
    // read on this thread: it has nothing else to do meanwhile
    await tail.read(
      {
        restart: (outcome) => {
          throw new Error(`${path} was ${outcome} while it was read`);
        },
        line: (line) => {
          if (line.length > HANDOVER_BYTES) throw new Error(`line ${line.number} of ${path} is longer than ${HANDOVER_BYTES >> 20} MB`);
          ingest.line(line);
        },
      },
      Infinity,
      true,
    );
    ingest.progress(tail.offset, tail.lines);
    catalog.trim([], true, (session) => (lastFileOf.get(session.key) ?? -1) > i);
    const state = tail.state();
    if (state) files.push({ path, ...state });
  }
  const { sessions, summaries } = catalog.handOver(blobs);
  const paths: [string, Uint32Array][] = [];
  if (work.cut) {
    for (const { key } of sessions) {
      const path = catalog.pathOf(key);
      if (path) paths.push([key, path]);
    }
  }
  // only what was read here: the seed set again would undo what the kernel's thread read since
  const seed = new Map(work.summaries);
  for (const [project, pairs] of Object.entries(summaries)) summaries[project] = pairs.filter(([leaf, text]) => seed.get(leaf) !== text);
  return { files, sessions, summaries, blobs: blobs.take(), asked: [...asked], paths };
}
