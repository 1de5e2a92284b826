import { createRoute } from '@tanstack/react-router';
import { useQuery } from 'urql';
import { AuditLog } from '../answer/AuditLog';
import { type ThemeChoice, theme } from '../lib/theme';
import { KERNEL_INFO } from '../status/queries';
import { TagManager } from '../tags/TagManager';
import { rootRoute } from './root';

export const settingsRoute = createRoute({ getParentRoute: () => rootRoute, path: '/settings', component: Settings });

function Settings() {
  const [{ data, error }] = useQuery({ query: KERNEL_INFO });
  const choice = theme.use();
  const k = data?.kernel;
  return (
    <section className="settings">
      <h1>Settings</h1>
      <fieldset>
        <legend>Theme</legend>
        {(['system', 'light', 'dark'] as ThemeChoice[]).map((t) => (
          <label key={t}>
            <input type="radio" name="theme" value={t} checked={choice === t} onChange={() => theme.set(t)} /> {t}
          </label>
        ))}
      </fieldset>
      <h2>This kernel</h2>
      {error && <p className="error">{error.message}</p>}
      {k && (
        <dl>
          <dt>Host</dt>
          <dd>{k.host.name}</dd>
          <dt>Version</dt>
          <dd>{k.version}</dd>
          <dt>Transcripts</dt>
          <dd>
            <code>{k.projectsRoot}</code>
          </dd>
          <dt>Sessions</dt>
          <dd>{k.sessionCount}</dd>
          <dt>Running since</dt>
          <dd>{new Date(k.startedAt).toLocaleString()}</dd>
        </dl>
      )}
      <TagManager />
      <h2>Actions</h2>
      <AuditLog />
      <h2>Keyboard</h2>
      <dl>
        <dt>
          <kbd>/</kbd>
        </dt>
        <dd>search every session</dd>
        <dt>
          <kbd>f</kbd>
        </dt>
        <dd>filter the tabs</dd>
        <dt>
          <kbd>j</kbd> <kbd>k</kbd>
        </dt>
        <dd>next and previous tab</dd>
      </dl>
    </section>
  );
}
