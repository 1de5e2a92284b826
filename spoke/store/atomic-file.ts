import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { decodeText } from './ascii-json';

// Files Loom keeps in its state dir are replaced whole and atomically: a crash leaves the old
// file or the new one, never half of either. A file that cannot be read back is moved aside
// (never silently replaced), so a person can look at it.

/** The temp file a write goes through, named by its writer's pid so two writers never share one. */
const tempPath = (path: string): string => `${path}.${process.pid}.tmp`;

/** The pid in the name of a temp file writeFileAtomic made, or null for any other name. */
export function tempWriter(name: string): number | null {
  const match = /\.(\d+)\.tmp$/.exec(name);
  return match ? Number(match[1]) : null;
}

/** Writes text, or text in parts (so a large file never has to exist as one string). */
export function writeFileAtomic(path: string, text: string | Iterable<string>, mode = 0o600): void {
  const temp = tempPath(path);
  const fd = openSync(temp, 'w', mode);
  try {
    for (const part of typeof text === 'string' ? [text] : text) writeSync(fd, part);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, path);
}

/** The file's text (UTF-8), or null when it does not exist. */
export function readFileIfPresent(path: string): string | null {
  try {
    return decodeText(readFileSync(path));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** Moves an unreadable file aside and returns where it went. */
export function moveAside(path: string): string {
  const aside = `${path}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  renameSync(path, aside);
  return aside;
}
