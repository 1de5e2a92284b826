import { Link } from '@tanstack/react-router';
import { plainTitle } from '../lib/plain-title';
import { ArchivedChip, LiveChip } from '../tabs/live-chip';
import type { LiveKind } from '../tabs/sessions';
import { SessionTags } from '../tags/SessionTags';
import { SessionName } from './SessionName';
import { SessionUsage } from './SessionUsage';
import type { SessionHead } from './types';

/** Which session this is (renamed here in Loom), its tags, where it runs, whether it is live, what it used, and the subagents it launched. */
export function ChatHeader({ head, live }: { head: SessionHead; live: LiveKind }) {
  return (
    <header className="chat-header">
      <div className="chat-title">
        <SessionName head={head} />
        <LiveChip state={live} />
        <ArchivedChip archived={head.archived} />
      </div>
      <SessionTags sessionId={head.id} host={head.host.name} />
      <div className="chat-meta">
        <span className="chat-dir">{head.dir}</span>
        <SessionUsage head={head} />
        {head.parent && (
          <span>
            subagent of{' '}
            <Link to="/s/$id" params={{ id: head.parent.id }}>
              {plainTitle(head.parent.name)}
            </Link>
          </span>
        )}
      </div>
      {head.subagents.length > 0 && (
        <div className="chat-subagents">
          <span className="chat-subagents-label">subagents</span>
          {head.subagents.map((s) => (
            <Link key={s.id} to="/s/$id" params={{ id: s.id }} className="chat-subagent" data-subagent={s.id} title={plainTitle(s.name)}>
              {plainTitle(s.name)}
            </Link>
          ))}
        </div>
      )}
    </header>
  );
}
