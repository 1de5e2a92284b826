import { createSavedStore } from '../lib/saved-store';
import { type Tag, type TagsSnapshot, tagsOf } from '../tags/tags-store';
import type { SessionTab } from './sessions';

// The tab strip grouped: by tag (a header per tag in its host's order, a tab under every tag it
// carries, the untagged last) or by project (its directory), or not at all.

export type Grouping = 'none' | 'tag' | 'project';
const GROUPINGS: readonly unknown[] = ['none', 'tag', 'project'] satisfies Grouping[];
/** kept in this browser across reloads */
export const tabGrouping = createSavedStore<Grouping>('tabGrouping', 'none', (saved) => (GROUPINGS.includes(saved) ? (saved as Grouping) : null));

export type TabRow = { kind: 'header'; key: string; label: string; count: number; color?: string } | { kind: 'tab'; key: string; session: SessionTab };

const tabRow = (group: string, session: SessionTab): TabRow => ({ kind: 'tab', key: `${group}/${session.id}`, session });

function section(key: string, label: string, sessions: SessionTab[], color?: string): TabRow[] {
  return [{ kind: 'header', key, label, count: sessions.length, color }, ...sessions.map((s) => tabRow(key, s))];
}

export function groupRows(shown: SessionTab[], grouping: Grouping, tags: TagsSnapshot): TabRow[] {
  if (grouping === 'none') return shown.map((s) => tabRow('', s));
  if (grouping === 'project') {
    const byDir = new Map<string, SessionTab[]>();
    for (const s of shown) byDir.set(s.dir, [...(byDir.get(s.dir) ?? []), s]);
    return [...byDir].flatMap(([dir, sessions]) => section(`dir:${dir}`, dir, sessions));
  }
  const several = tags.hosts.size > 1;
  const rows: TabRow[] = [];
  for (const [host, { tags: list }] of tags.hosts)
    for (const tag of list) {
      const members = shown.filter((s) => carries(tagsOf(tags, s.id), tag));
      if (members.length > 0) rows.push(...section(`tag:${tag.id}`, several ? `${host}:${tag.name}` : tag.name, members, tag.color));
    }
  const untagged = shown.filter((s) => tagsOf(tags, s.id).length === 0);
  if (untagged.length > 0) rows.push(...section('untagged', 'untagged', untagged));
  return rows;
}

const carries = (list: readonly Tag[], tag: Tag) => list.some((t) => t.id === tag.id);
