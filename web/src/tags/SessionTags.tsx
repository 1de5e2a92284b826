import { useState } from 'react';
import { nextColor } from './palette';
import { createTag, tagSession, untagSession } from './tag-edits';
import { type Tag, tagsOf, useTags } from './tags-store';
import './tags.css';

/** The session's tags as chips, each removable, and adding one: a tag of its host, or a new one. */
export function SessionTags({ sessionId, host }: { sessionId: string; host: string }) {
  const snapshot = useTags();
  const carried = tagsOf(snapshot, sessionId);
  const others = (snapshot.hosts.get(host)?.tags ?? []).filter((t) => !carried.some((c) => c.id === t.id));
  const [adding, setAdding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = (edit: Promise<unknown>, then?: () => void) => {
    setError(null);
    edit.then(then, (err: Error) => setError(err.message));
  };

  return (
    <div className="session-tags">
      {carried.map((tag) => (
        <span key={tag.id} className="tag-chip" data-tag={tag.id}>
          <span className="tag-dot" style={{ background: tag.color }} />
          <span className="tag-name">{tag.name}</span>
          <button type="button" aria-label={`Remove tag ${tag.name}`} title="Remove this tag" onClick={() => run(untagSession(tag.id, sessionId))}>
            ×
          </button>
        </span>
      ))}
      {adding ? (
        <AddTag
          others={others}
          color={nextColor(snapshot.hosts.get(host)?.tags.length ?? 0)}
          onAdd={(pick) => run(pick.id ? tagSession(pick.id, sessionId) : newTag(host, pick.name, pick.color, sessionId), () => setAdding(false))}
          onCancel={() => setAdding(false)}
        />
      ) : (
        <button type="button" className="tag-add-open" onClick={() => setAdding(true)}>
          + tag
        </button>
      )}
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

async function newTag(host: string, name: string, color: string, sessionId: string): Promise<void> {
  await tagSession(await createTag(host, name, color), sessionId);
}

interface Pick {
  /** an existing tag's, else a new tag is made */
  id: string;
  name: string;
  color: string;
}

function AddTag({ others, color: first, onAdd, onCancel }: { others: readonly Tag[]; color: string; onAdd: (pick: Pick) => void; onCancel: () => void }) {
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [color, setColor] = useState(first);
  return (
    <form
      className="tag-add"
      onSubmit={(e) => {
        e.preventDefault();
        if (id || name.trim()) onAdd({ id, name: name.trim(), color });
      }}
      onKeyDown={(e) => e.key === 'Escape' && onCancel()}
    >
      {others.length > 0 && (
        <select aria-label="Existing tag" value={id} onChange={(e) => setId(e.target.value)}>
          <option value="">a new tag…</option>
          {others.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      )}
      {!id && (
        <>
          {/* biome-ignore lint/a11y/noAutofocus: the form opens because the user asked to add a tag */}
          <input type="text" autoFocus aria-label="New tag name" placeholder="new tag" value={name} onChange={(e) => setName(e.target.value)} />
          <input type="color" aria-label="New tag colour" value={color} onChange={(e) => setColor(e.target.value)} />
        </>
      )}
      <button type="submit">Add</button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </form>
  );
}
