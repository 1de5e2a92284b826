import { createRoute } from '@tanstack/react-router';
import { ChatPane } from '../chat/ChatPane';
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
  return <ChatPane key={id} sessionId={id} turnId={turn ?? null} />;
}
