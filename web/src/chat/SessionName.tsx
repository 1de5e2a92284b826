import { useState } from 'react';
import { HostName } from '../tabs/host-name';
import { useSessions } from '../tabs/sessions';
import { shownName } from '../tabs/shown-name';
import { renameSession } from '../tags/tag-edits';
import type { SessionHead } from './types';

/**
 * The session's name, and renaming it in Loom in place: Enter saves, Escape (or leaving the field)
 * cancels, an empty name gives the session back its own. The transcript is never written.
 */
export function SessionName({ head }: { head: SessionHead }) {
  const tab = useSessions().byId.get(head.id);
  // a session with no tab (a subagent's) keeps what this page named it
  const [renamed, setRenamed] = useState<{ loomName: string | null } | null>(null);
  const name = tab ? shownName(tab) : renamed ? (renamed.loomName ?? head.name) : shownName(head);
  const [draft, setDraft] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const save = (text: string) => {
    setError(null);
    renameSession(head.id, text).then(
      (loomName) => {
        setRenamed({ loomName });
        setDraft(null);
      },
      (err: Error) => setError(err.message),
    );
  };

  if (draft === null)
    return (
      <>
        <HostName host={head.host.name} name={name} />
        <button
          type="button"
          className="chat-rename"
          aria-label="Rename session"
          title="Rename in Loom (the transcript is not changed)"
          onClick={() => setDraft(name)}
        >
          ✎
        </button>
      </>
    );
  return (
    <span className="chat-rename-field">
      <input
        // biome-ignore lint/a11y/noAutofocus: the field opens because the user asked to type in it
        autoFocus
        aria-label="Session name"
        placeholder={head.name}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') save(draft);
          else if (e.key === 'Escape') setDraft(null);
        }}
        onBlur={() => {
          if (!error) setDraft(null);
        }}
      />
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </span>
  );
}
