import type { SessionTab } from './sessions';
import { shownName } from './shown-name';

// One filter for tabs and timeline lanes: text over `host:name` (the Loom name and the session's
// own) and the directory, and a
// directory (the directory itself or anything below it).

export interface TabFilter {
  text: string;
  dir: string;
}

export function filterSessions(list: SessionTab[], filter: TabFilter): SessionTab[] {
  const text = filter.text.trim().toLowerCase();
  const dir = filter.dir.replace(/\/$/, '');
  if (!text && !dir) return list;
  return list.filter((s) => (!dir || s.dir === dir || s.dir.startsWith(`${dir}/`)) && (!text || named(s, text) || s.dir.toLowerCase().includes(text)));
}

/** `host:name` holds the text, for the Loom name or the session's own. */
function named(s: SessionTab, text: string): boolean {
  return [shownName(s), s.name].some((name) => `${s.host.name}:${name}`.toLowerCase().includes(text));
}

/** The directories sessions ran in, most sessions first. */
export function directories(list: SessionTab[]): string[] {
  const counts = new Map<string, number>();
  for (const s of list) counts.set(s.dir, (counts.get(s.dir) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([dir]) => dir);
}
