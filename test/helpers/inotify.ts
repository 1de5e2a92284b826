import { readdirSync, readFileSync } from 'node:fs';

// How many inotify watches a process holds (Linux only): each inotify fd's fdinfo lists one
// `inotify wd:` line per watch. This is what `fs.inotify.max_user_watches` limits.

/** The watches held by `pid` (this process by default), or null where there is no /proc. */
export function inotifyWatches(pid: number | 'self' = 'self'): number | null {
  if (process.platform !== 'linux') return null;
  const dir = `/proc/${pid}/fdinfo`;
  let count = 0;
  for (const fd of readdirSync(dir)) {
    let info: string;
    try {
      info = readFileSync(`${dir}/${fd}`, 'utf8');
    } catch {
      continue; // closed while we looked
    }
    count += info.split('\n').filter((l) => l.startsWith('inotify wd:')).length;
  }
  return count;
}
