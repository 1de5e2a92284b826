import type { TranscriptPlace } from './paths';

// The rest of the first index, cut into the portions the index workers and the kernel's thread
// share out (tracker.ts): each project's files, a few MB at a time. A whole project was the unit
// until 2026-12-04; but the kernel's thread and the workers end together only as closely as the
// last unit one of them holds, and a project of 54 MB left the kernel's thread idle at the end for
// a tenth of a second (docs/performance.md, Portions of projects).

/** Portions are cut at about this many bytes of transcripts (a session bigger than that is one portion of its own). */
export const PORTION_BYTES = 8 << 20;

export interface Portion<F> {
  project: string;
  /** in the order given */
  files: F[];
  bytes: number;
}

/**
 * `files` in portions: a project's files never share one with another project's, and a session's
 * files (its main file and its subagents' under its folder) are never split between two, so that
 * each portion's catalog holds its sessions whole. Portions come in the order their first files
 * were given, and so do the files in each. A file with no place is a portion of its own.
 */
export function portionsOf<F extends { path: string; size: number }>(
  files: F[],
  placeOf: (path: string) => TranscriptPlace | undefined,
  limit = PORTION_BYTES,
): Portion<F>[] {
  // each session's files, in the order their first file comes; then sessions packed in that order
  const sessions = new Map<string, { project: string; files: F[]; bytes: number }>();
  for (const file of files) {
    const place = placeOf(file.path);
    const project = place?.project ?? '';
    const key = place ? `${project}/${place.role === 'subagent' && place.parentKey !== null ? place.parentKey : place.sessionKey}` : `\0${file.path}`;
    const session = sessions.get(key);
    if (session) {
      session.files.push(file);
      session.bytes += file.size;
    } else sessions.set(key, { project, files: [file], bytes: file.size });
  }
  const byProject = new Map<string, Portion<F>[]>();
  const portionOf = new Map<F, Portion<F>>();
  for (const session of sessions.values()) {
    const portions = byProject.get(session.project) ?? [];
    byProject.set(session.project, portions);
    let last = portions.at(-1);
    if (!last || (last.bytes > 0 && last.bytes + session.bytes > limit)) {
      last = { project: session.project, files: [], bytes: 0 };
      portions.push(last);
    }
    last.bytes += session.bytes;
    for (const file of session.files) portionOf.set(file, last);
  }
  // the files of each portion in the order given, and the portions in the order of their first file
  const ordered: Portion<F>[] = [];
  for (const file of files) {
    const portion = portionOf.get(file)!;
    if (portion.files.length === 0) ordered.push(portion);
    portion.files.push(file);
  }
  return ordered;
}

/** The projects cut into more than one portion. */
export function cutProjects<F>(portions: Portion<F>[]): Set<string> {
  const seen = new Set<string>();
  const cut = new Set<string>();
  for (const { project } of portions) {
    if (seen.has(project)) cut.add(project);
    seen.add(project);
  }
  return cut;
}
