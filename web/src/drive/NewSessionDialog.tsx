import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { mutate, query } from '../lib/gql';
import { idempotencyKey } from '../lib/idempotency-key';
import { useHosts } from '../network/hosts';
import { cannotActOn } from './cannot-act';
import { PROJECT_DIRECTORIES, START_SESSION } from './queries';
import { startedSession } from './started-sessions';
import type { StartPermissionMode } from './types';
import './drive.css';

const MODE_LABEL: Record<StartPermissionMode, string> = {
  DEFAULT: 'ask before tools',
  ACCEPT_EDITS: 'accept edits',
  PLAN: 'plan first',
};

interface Directory {
  dir: string;
  sessionCount: number;
}

/**
 * Starts Claude Code on a host in a directory with a first prompt, then opens the new session's
 * chat. The hosts offered are this machine and the linked hosts this hub may act on (an isolated
 * one is read-only); the directories suggested are where the host's sessions ran lately.
 */
export function NewSessionDialog({ onClose }: { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const navigate = useNavigate();
  const { hosts } = useHosts();
  const offered = hosts.filter((h) => h.trust !== 'ISOLATED');
  const [hostName, setHostName] = useState<string | null>(null);
  const host = offered.find((h) => h.name === hostName) ?? offered.find((h) => h.local);
  const [dir, setDir] = useState('');
  const [prompt, setPrompt] = useState('');
  const [model, setModel] = useState('');
  const [mode, setMode] = useState<StartPermissionMode | ''>('');
  const [dirs, setDirs] = useState<Directory[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // an answer that comes after the dialog closed opens nothing: the session shows in the list
  const showing = useRef(true);

  useEffect(() => {
    if (!dialog.current?.open) dialog.current?.showModal();
  }, []);

  // the host's recent directories, as suggestions for the directory field
  const remote = host && !host.local ? host.name : null;
  useEffect(() => {
    let current = true;
    setDirs([]);
    query(PROJECT_DIRECTORIES, { host: remote }).then(
      (data) => current && setDirs(data.projectDirectories),
      () => undefined, // no suggestions: the field still takes any directory
    );
    return () => {
      current = false;
    };
  }, [remote]);

  const blocked = cannotActOn(host);
  const ready = !busy && !blocked && dir.trim() !== '' && prompt.trim() !== '';
  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    if (!ready) return;
    setBusy(true);
    setError(null);
    const started = dir.trim();
    mutate(START_SESSION, { host: remote, dir: started, prompt, model: model.trim() || null, mode: mode || null, key: idempotencyKey() })
      .then(({ startSession }) => {
        if (!showing.current) return;
        // its transcript may not be read yet: the chat says it is starting until the list has it
        if (!startSession.session) startedSession(startSession.sessionId, started);
        dialog.current?.close();
        void navigate({ to: '/s/$id', params: { id: startSession.sessionId } });
      })
      .catch((err: Error) => setError(`Could not start the session: ${err.message}`))
      .finally(() => setBusy(false));
  };
  const onPromptKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return;
    e.preventDefault();
    submit();
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a <dialog> closes on Escape by itself; the click is the backdrop's
    <dialog
      ref={dialog}
      className="new-session"
      aria-labelledby="new-session-title"
      onClose={() => {
        showing.current = false;
        onClose();
      }}
      onClick={(e) => e.target === e.currentTarget && !busy && dialog.current?.close()}
    >
      <h2 id="new-session-title">New session</h2>
      <form onSubmit={submit}>
        <label>
          Host
          <select value={host?.name ?? ''} onChange={(e) => setHostName(e.target.value)}>
            {offered.map((h) => (
              <option key={h.name} value={h.name}>
                {h.local ? `${h.name} (this machine)` : h.status?.state === 'UP' ? h.name : `${h.name} (${h.status?.state.toLowerCase() ?? 'unknown'})`}
              </option>
            ))}
          </select>
        </label>
        {blocked && <p className="new-session-hint error">{blocked}</p>}
        <label>
          Directory
          <input
            list="new-session-dirs"
            required
            placeholder={dirs[0]?.dir ?? '/home/you/project'}
            value={dir}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => setDir(e.target.value)}
          />
          <datalist id="new-session-dirs">
            {dirs.map((d) => (
              <option key={d.dir} value={d.dir}>
                {d.sessionCount === 1 ? '1 session' : `${d.sessionCount} sessions`}
              </option>
            ))}
          </datalist>
        </label>
        <label>
          First prompt
          <textarea required placeholder="What Claude should do" value={prompt} onChange={(e) => setPrompt(e.target.value)} onKeyDown={onPromptKey} />
        </label>
        <div className="new-session-optional">
          <label>
            Model (optional)
            <input placeholder="Claude Code's default" value={model} autoComplete="off" spellCheck={false} onChange={(e) => setModel(e.target.value)} />
          </label>
          <label>
            Permission mode
            <select value={mode} onChange={(e) => setMode(e.target.value as StartPermissionMode | '')}>
              <option value="">Claude Code's setting</option>
              {Object.entries(MODE_LABEL).map(([value, label]) => (
                <option key={value} value={value}>
                  {label}
                </option>
              ))}
            </select>
          </label>
        </div>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <div className="new-session-actions">
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button type="submit" className="new-session-start" disabled={!ready}>
            {busy ? 'Starting…' : 'Start'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
