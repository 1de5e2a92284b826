import { useState } from 'react';
import { useHosts } from '../network/hosts';
import { tabFilter } from '../tabs/filter-store';
import { hostOf } from '../tags/tag-edits';
import { type SavedView, useTags } from '../tags/tags-store';
import { knownTags, pickView, showEverything, showsEverything, showsView } from './lens';
import { tabLens } from './lens-store';
import { deleteView, saveView } from './view-edits';

// Saved views: pick one to set the tab strip to it, save the strip as one, delete the one picked.
// Each host keeps its own views; with several hosts the list names each view's host.

const UNSAVED = 'unsaved';

export function SavedViews() {
  const tags = useTags();
  const filter = tabFilter.use();
  const lens = tabLens.use();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const byHost = [...tags.hosts].filter(([, held]) => held.views.length > 0);
  const all = byHost.flatMap(([, held]) => held.views);
  // a tag deleted meanwhile is gone from the host's views too: compare without it
  const seen = { ...lens, tagIds: knownTags(lens, tags) };
  const shown = (v: SavedView) => showsView(filter, seen, v);
  const picked = all.find((v) => v.id === lens.viewId && shown(v)) ?? all.find(shown);
  const value = picked?.id ?? (showsEverything(filter, seen) ? '' : UNSAVED);
  const options = (views: readonly SavedView[]) =>
    views.map((v) => (
      <option key={v.id} value={v.id}>
        {v.name}
      </option>
    ));

  return (
    <div className="lens-views">
      <div className="lens-row">
        <select
          aria-label="Saved view"
          value={value}
          onChange={(e) => {
            const view = all.find((v) => v.id === e.target.value);
            if (view) pickView(view);
            else if (e.target.value === '') showEverything();
          }}
        >
          <option value="">all sessions</option>
          {value === UNSAVED && (
            <option value={UNSAVED} disabled>
              unsaved view
            </option>
          )}
          {tags.hosts.size > 1
            ? byHost.map(([host, held]) => (
                <optgroup key={host} label={host}>
                  {options(held.views)}
                </optgroup>
              ))
            : options(all)}
        </select>
        <button type="button" aria-expanded={saving} onClick={() => setSaving(!saving)}>
          Save…
        </button>
        <button
          type="button"
          aria-label={picked ? `Delete view ${picked.name}` : 'Delete view'}
          disabled={!picked}
          onClick={() => {
            if (!picked) return;
            setError(null);
            deleteView(picked.id).catch((err: Error) => setError(err.message));
          }}
        >
          Delete
        </button>
      </div>
      {saving && <SaveView onDone={() => setSaving(false)} />}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * Saves the strip as a view on one host: the host of the tags it shows (a view names only its
 * host's tags), else the one chosen (this machine at first). A name the host's views have already
 * replaces that view. Refused as stale, it stays open with what was typed.
 */
function SaveView({ onDone }: { onDone: () => void }) {
  const tags = useTags();
  const { hosts } = useHosts();
  const lens = tabLens.use();
  const pickedName = [...tags.hosts.values()].flatMap((held) => held.views).find((v) => v.id === lens.viewId)?.name;
  const [name, setName] = useState(pickedName ?? '');
  const [chosenHost, setChosenHost] = useState(() => hosts.find((h) => h.local)?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const tagHosts = [...new Set(knownTags(lens, tags).map(hostOf))];
  const host = tagHosts.length === 1 ? tagHosts[0] : chosenHost;
  const held = tags.hosts.get(host);
  const refusal = tagHosts.length > 1 ? `A view keeps one host's tags, and these are of ${tagHosts.join(' and ')}.` : null;

  return (
    <form
      className="lens-save"
      onSubmit={(e) => {
        e.preventDefault();
        if (!held || refusal || !name.trim()) return;
        setError(null);
        saveView(host, held, name, tabFilter.get(), tabLens.get()).then(
          (id) => {
            tabLens.set({ ...tabLens.get(), viewId: id });
            onDone();
          },
          (err: Error) => setError(err.message),
        );
      }}
      onKeyDown={(e) => e.key === 'Escape' && onDone()}
    >
      {/* biome-ignore lint/a11y/noAutofocus: the form opens because the user asked to save a view */}
      <input type="text" autoFocus aria-label="View name" placeholder="view name" value={name} onChange={(e) => setName(e.target.value)} />
      {tags.hosts.size > 1 && (
        <select aria-label="Keep the view on" value={host} disabled={tagHosts.length > 0} onChange={(e) => setChosenHost(e.target.value)}>
          {[...tags.hosts.keys()].map((h) => (
            <option key={h} value={h}>
              on {h}
            </option>
          ))}
        </select>
      )}
      <div className="lens-row">
        <button type="submit" disabled={refusal !== null}>
          Save view
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
      {(refusal ?? error) && (
        <p className="error" role="alert">
          {refusal ?? error}
        </p>
      )}
    </form>
  );
}
