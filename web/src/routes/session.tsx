import { createRoute } from '@tanstack/react-router';
import { ChatPane } from '../chat/ChatPane';
import { useStarting } from '../drive/started-sessions';
import { rootRoute } from './root';

/** `/s/$id?turn=<turnId>`: a session's chat, optionally opened at one turn. */
export const sessionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$id',
  validateSearch: (search: Record<string, unknown>): { turn?: string } => (typeof search.turn === 'string' ? { turn: search.turn } : {}),
  component: Session,
});

function Session() {
  const { id } = sessionRoute.useParams();
  const { turn } = sessionRoute.useSearch();
  // a session started from this page a moment ago: its chat opens once the kernel has read it
  const starting = useStarting(id);
  if (starting !== null) return <div className="chat-message">Starting Claude Code in {starting}…</div>;
  return <ChatPane key={id} sessionId={id} turnId={turn ?? null} />;
}
