import type { Tag } from './tags-store';
import './tags.css';

/** A tab's tags as coloured dots, their names read aloud and shown on hover. */
export function TagDots({ tags }: { tags: readonly Tag[] }) {
  if (tags.length === 0) return null;
  return (
    <span className="tag-dots" title={tags.map((t) => t.name).join(', ')}>
      {tags.map((tag) => (
        <span key={tag.id} className="tag-dot" data-tag={tag.id} style={{ background: tag.color }}>
          <span className="visually-hidden">{tag.name}</span>
        </span>
      ))}
    </span>
  );
}
