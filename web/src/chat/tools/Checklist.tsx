import { type CheckItem, statusLabel } from './checklist-items';

/** Items with their state: done ticked and struck through, the one under way marked. */
export function Checklist({ items }: { items: CheckItem[] }) {
  return (
    <ul className="checklist">
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a list as one call wrote it, never reordered
        <li key={i} className="check" data-status={item.status ?? 'unchanged'}>
          <span className="check-mark" role="img" aria-label={item.status ? statusLabel(item.status) : 'status unchanged'} />
          <span className="check-text">{item.text}</span>
          {item.note && <span className="check-note">{item.note}</span>}
        </li>
      ))}
    </ul>
  );
}
