import { type Grouping, tabGrouping } from '../tabs/grouping';
import { ORDERS, type SessionOrder, tabLens } from './lens-store';
import { SavedViews } from './SavedViews';
import { TagChooser } from './TagChooser';
import './lens.css';

const ORDER_LABEL: Record<SessionOrder, string> = { RECENT: 'recent first', NAME: 'by name', PROJECT: 'by project' };

/** The tab strip's lens under its filter: the tags shown, the order, the grouping, and saved views. */
export function LensControls() {
  const lens = tabLens.use();
  const grouping = tabGrouping.use();
  return (
    <>
      <TagChooser />
      <div className="lens-row">
        <select aria-label="Order tabs" value={lens.order} onChange={(e) => tabLens.set({ ...lens, order: e.target.value as SessionOrder })}>
          {ORDERS.map((order) => (
            <option key={order} value={order}>
              {ORDER_LABEL[order]}
            </option>
          ))}
        </select>
        <select aria-label="Group tabs by" value={grouping} onChange={(e) => tabGrouping.set(e.target.value as Grouping)}>
          <option value="none">no groups</option>
          <option value="tag">group by tag</option>
          <option value="project">group by project</option>
        </select>
      </div>
      <SavedViews />
    </>
  );
}
