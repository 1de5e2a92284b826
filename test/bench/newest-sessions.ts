import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { placeOf } from '../../spoke/transcripts/paths';

/**
 * The keys of the `count` sessions whose files changed last (file mtime, a session's subagent
 * folder included), newest first: what a first screen should list. A subagent file beside its
 * session (older versions) names its session only inside, so it is not counted.
 */
export async function newestSessionKeys(root: string, count: number): Promise<string[]> {
  const changed = new Map<string, number>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    const place = entry.isFile() ? placeOf(root, path) : null;
    const key = place?.role === 'main' ? place.sessionKey : place?.parentKey;
    if (!key) continue;
    const { mtimeMs } = await stat(path);
    changed.set(key, Math.max(changed.get(key) ?? 0, mtimeMs));
  }
  return [...changed]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key]) => key);
}
