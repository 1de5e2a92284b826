import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { plainTitle } from '../lib/plain-title';
import { useSessions } from '../tabs/sessions';
import { shownName } from '../tabs/shown-name';
import { byCost, type UsageRow } from './figures';
import { UsageTable } from './UsageTable';

// Per session, highest cost first, each linking to its chat. Names come from the session list
// the tabs keep (top-level sessions); a subagent's session, which has no tab, shows its key.

const FIRST_ROWS = 25;

export function SessionsSection({ sessions, unpriced }: { sessions: readonly UsageRow[]; unpriced: readonly string[] }) {
  const { byId } = useSessions();
  const nameOf = (id: string) => {
    const tab = byId.get(id);
    return tab && shownName(tab);
  };
  const [all, setAll] = useState(false);
  const sorted = [...sessions].sort(byCost);
  const shown = all ? sorted : sorted.slice(0, FIRST_ROWS);
  return (
    <section>
      <h2>Per session</h2>
      <UsageTable
        group="session"
        caption={shown.length < sorted.length ? `The ${shown.length} sessions that cost the most, of ${sorted.length}` : 'Tokens and cost per session'}
        rowHeader="Session"
        rows={shown}
        label={(row) => (
          <Link to="/s/$id" params={{ id: row.key }} className="usage-session">
            {sessionName(row.key, nameOf(row.key))}
          </Link>
        )}
        extra={{ header: 'Host', cell: (row) => hostOf(row.key) }}
        unpriced={() => unpriced}
      />
      {shown.length < sorted.length && (
        <button type="button" className="usage-more" onClick={() => setAll(true)}>
          Show all {sorted.length} sessions
        </button>
      )}
    </section>
  );
}

/** A session id is `host:key` (docs/api.md, "Ids"). */
const hostOf = (id: string): string => id.slice(0, id.indexOf(':'));

function sessionName(id: string, name: string | undefined): string {
  if (name) return plainTitle(name);
  const key = id.slice(id.indexOf(':') + 1);
  return /^(agent|sidechain)-/.test(key) ? `subagent ${key}` : key;
}
