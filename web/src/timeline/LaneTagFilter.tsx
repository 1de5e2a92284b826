import { useTags } from '../tags/tags-store';
import { laneTag } from './lane-tag-store';

/** Narrows the lanes to the sessions of one tag; a tag is named with its host when several hosts have tags. */
export function LaneTagFilter() {
  const { hosts } = useTags();
  const chosen = laneTag.use();
  const withTags = [...hosts].filter(([, held]) => held.tags.length > 0);
  if (withTags.length === 0 && chosen === null) return null;
  const several = withTags.length > 1;
  return (
    <select className="tl-tag-filter" aria-label="Lanes of tag" value={chosen ?? ''} onChange={(e) => laneTag.set(e.target.value || null)}>
      <option value="">every tag</option>
      {withTags.flatMap(([host, held]) =>
        held.tags.map((tag) => (
          <option key={tag.id} value={tag.id}>
            {several ? `${host}:${tag.name}` : tag.name}
          </option>
        )),
      )}
    </select>
  );
}
