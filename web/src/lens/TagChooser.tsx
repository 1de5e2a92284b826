import { Link } from '@tanstack/react-router';
import { hostOf } from '../tags/tag-edits';
import { type TagsSnapshot, tagById, useTags } from '../tags/tags-store';
import { knownTags } from './lens';
import { type TabLens, tabLens } from './lens-store';

// Which tags' sessions the tab strip shows: a disclosure of checkboxes, one per tag of every
// host (named with its host when the page shows several, as the strip's group headers are) and
// one for the untagged; none checked is every session.

export function TagChooser() {
  const tags = useTags();
  const lens = tabLens.use();
  const withTags = [...tags.hosts].filter(([, held]) => held.tags.length > 0);
  const several = tags.hosts.size > 1;
  const toggle = (id: string) => {
    const tagIds = lens.tagIds.includes(id) ? lens.tagIds.filter((t) => t !== id) : [...lens.tagIds, id];
    tabLens.set({ ...lens, tagIds });
  };
  return (
    <details className="lens-tags">
      <summary>
        <span className="lens-tags-label">Tags:</span> <span className="lens-tags-chosen">{chosenWords(lens, tags, several)}</span>
      </summary>
      <fieldset>
        <legend className="visually-hidden">Show the sessions tagged</legend>
        {withTags.flatMap(([host, held]) =>
          held.tags.map((tag) => (
            <label key={tag.id}>
              <input type="checkbox" checked={lens.tagIds.includes(tag.id)} onChange={() => toggle(tag.id)} />
              <span className="tag-dot" style={{ background: tag.color }} />
              {several ? `${host}:${tag.name}` : tag.name}
            </label>
          )),
        )}
        <label>
          <input type="checkbox" checked={lens.untagged} onChange={() => tabLens.set({ ...lens, untagged: !lens.untagged })} />
          untagged
        </label>
        <Link to="/settings" hash="tags" className="lens-manage">
          Manage tags
        </Link>
      </fieldset>
    </details>
  );
}

/** "every session", or the tags checked (and "untagged"). */
function chosenWords(lens: TabLens, tags: TagsSnapshot, several: boolean): string {
  const names = knownTags(lens, tags).map((id) => {
    const name = tagById(tags, id)?.name ?? id;
    return several ? `${hostOf(id)}:${name}` : name;
  });
  if (lens.untagged) names.push('untagged');
  return names.length === 0 ? 'every session' : names.join(', ');
}
