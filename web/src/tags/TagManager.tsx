import { useState } from 'react';
import { useHosts } from '../network/hosts';
import { nextColor } from './palette';
import { createTag, deleteTag, moveTag, recolorTag, renameTag } from './tag-edits';
import { type HostViews, type Tag, useTags } from './tags-store';
import './tags.css';

// The settings' Tags section: each host's tags, where they live, renamed, recoloured, deleted
// (after saying how many sessions carry the tag), moved up or down (the order the tab strip groups
// them in), and new ones made.

/** Every host that is up (or was, its tags as last seen), this machine first. */
export function TagManager() {
  const tags = useTags();
  const { hosts } = useHosts();
  const shown = hosts.filter((h) => tags.hosts.has(h.name));
  return (
    <>
      <h2 id="tags">Tags</h2>
      <p className="tags-hint">
        Each host keeps its own tags, for its own sessions. Their order here is the order of the tab strip's groups; a tag is given to a session in its chat's
        header.
      </p>
      {shown.map((h) => (
        <HostTags key={h.name} host={h.name} local={h.local} held={tags.hosts.get(h.name)!} titled={shown.length > 1} />
      ))}
    </>
  );
}

function HostTags({ host, local, held, titled }: { host: string; local: boolean; held: HostViews; titled: boolean }) {
  const [error, setError] = useState<string | null>(null);
  const run = (edit: Promise<unknown>): Promise<boolean> => {
    setError(null);
    return edit.then(
      () => true,
      (err: Error) => {
        setError(err.message);
        return false;
      },
    );
  };
  return (
    <section className="tag-manager" data-host-tags={host} aria-label={`Tags on ${host}`}>
      {titled && (
        <h3>
          {host} {local && <span className="tags-local">this machine</span>}
        </h3>
      )}
      {held.tags.length === 0 ? (
        <p className="tags-hint">No tags on {host} yet.</p>
      ) : (
        <ol className="tag-list">
          {held.tags.map((tag, i) => (
            <TagRow
              key={tag.id}
              tag={tag}
              first={i === 0}
              last={i === held.tags.length - 1}
              run={run}
              onMove={(by) => void run(moveTag(host, held, tag.id, by))}
            />
          ))}
        </ol>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <NewTag host={host} count={held.tags.length} run={run} />
    </section>
  );
}

interface RowProps {
  tag: Tag;
  first: boolean;
  last: boolean;
  run: (edit: Promise<unknown>) => Promise<boolean>;
  onMove: (by: -1 | 1) => void;
}

/**
 * One tag. The move buttons at an end say so (aria-disabled) rather than being disabled, so the
 * focus stays on the button that moved the tag there.
 */
function TagRow({ tag, first, last, run, onMove }: RowProps) {
  const [mode, setMode] = useState<'show' | 'edit' | 'delete'>('show');
  const carriers = tag.memberIds.length === 1 ? '1 session carries it' : `${tag.memberIds.length} sessions carry it`;
  if (mode === 'edit') return <EditTag tag={tag} run={run} onDone={() => setMode('show')} />;
  return (
    <li className="tag-row" data-tag={tag.id}>
      <span className="tag-dot" style={{ background: tag.color }} />
      <span className="tag-name">{tag.name}</span>
      <span className="tag-count">{tag.memberIds.length === 1 ? '1 session' : `${tag.memberIds.length} sessions`}</span>
      {mode === 'delete' ? (
        <fieldset className="tag-confirm" aria-label={`Delete ${tag.name}?`}>
          Delete {tag.name}? {carriers}; they keep their other tags.
          <button type="button" className="tag-danger" onClick={() => void run(deleteTag(tag.id))}>
            Delete
          </button>
          {/* biome-ignore lint/a11y/noAutofocus: the question opens because the user asked to delete; the safe answer takes the focus */}
          <button type="button" autoFocus onClick={() => setMode('show')}>
            Cancel
          </button>
        </fieldset>
      ) : (
        <span className="tag-actions">
          <button type="button" aria-label={`Move ${tag.name} up`} aria-disabled={first} onClick={() => !first && onMove(-1)}>
            ↑
          </button>
          <button type="button" aria-label={`Move ${tag.name} down`} aria-disabled={last} onClick={() => !last && onMove(1)}>
            ↓
          </button>
          <button type="button" aria-label={`Edit ${tag.name}`} onClick={() => setMode('edit')}>
            Edit
          </button>
          <button type="button" aria-label={`Delete ${tag.name}…`} onClick={() => setMode('delete')}>
            Delete…
          </button>
        </span>
      )}
    </li>
  );
}

/** Renames and recolours a tag: what changed is written, the name first. */
function EditTag({ tag, run, onDone }: { tag: Tag; run: (edit: Promise<unknown>) => Promise<boolean>; onDone: () => void }) {
  const [name, setName] = useState(tag.name);
  const [color, setColor] = useState(tag.color);
  const save = async () => {
    if (name.trim() !== tag.name) await renameTag(tag.id, name);
    if (color !== tag.color) await recolorTag(tag.id, color);
  };
  return (
    <li className="tag-row" data-tag={tag.id}>
      <form
        className="tag-edit"
        onSubmit={(e) => {
          e.preventDefault();
          void run(save()).then((saved) => saved && onDone());
        }}
        onKeyDown={(e) => e.key === 'Escape' && onDone()}
      >
        <input type="color" aria-label={`Colour of ${tag.name}`} value={color} onChange={(e) => setColor(e.target.value)} />
        {/* biome-ignore lint/a11y/noAutofocus: the form opens because the user asked to edit this tag */}
        <input type="text" autoFocus aria-label={`Name of ${tag.name}`} value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit">Save</button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </form>
    </li>
  );
}

function NewTag({ host, count, run }: { host: string; count: number; run: (edit: Promise<unknown>) => Promise<boolean> }) {
  const [name, setName] = useState('');
  const [color, setColor] = useState<string | null>(null);
  return (
    <form
      className="tag-edit tag-new"
      onSubmit={(e) => {
        e.preventDefault();
        if (!name.trim()) return;
        void run(createTag(host, name.trim(), color ?? nextColor(count))).then((made) => {
          if (!made) return;
          setName('');
          setColor(null);
        });
      }}
    >
      <input type="color" aria-label={`New tag colour on ${host}`} value={color ?? nextColor(count)} onChange={(e) => setColor(e.target.value)} />
      <input type="text" aria-label={`New tag name on ${host}`} placeholder="new tag" value={name} onChange={(e) => setName(e.target.value)} />
      <button type="submit">Add tag</button>
    </form>
  );
}
