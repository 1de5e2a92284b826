import { createRoute, useRouterState } from '@tanstack/react-router';
import { ChatPane } from '../chat/ChatPane';
import { useStarting } from '../drive/started-sessions';
import { rootRoute } from './root';

interface SessionSearch {
  /** a turn's id: the chat opens at that turn */
  turn?: string;
  /** an atom's sequence (a search hit's line): the chat opens at its row and marks it */
  at?: number;
  /** the search hit is on a branch a rewind took off the path */
  rewound?: true;
}

/** `/s/$id?turn=<turnId>&at=<sequence>`: a session's chat, optionally opened at one turn or one line. */
export const sessionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$id',
  validateSearch: (search: Record<string, unknown>): SessionSearch => ({
    ...(typeof search.turn === 'string' ? { turn: search.turn } : {}),
    ...(Number.isSafeInteger(search.at) && (search.at as number) >= 0 ? { at: search.at as number } : {}),
    ...(search.rewound === true ? { rewound: true } : {}),
  }),
  component: Session,
});

function Session() {
  const { id } = sessionRoute.useParams();
  const { turn, at, rewound } = sessionRoute.useSearch();
  // each visit of a link has its own key in the history: opening the same hit again jumps again
  const visit = useRouterState({ select: (s) => s.location.state.__TSR_key ?? s.location.state.key ?? '' });
  // a session started from this page a moment ago: its chat opens once the kernel has read it
  const starting = useStarting(id);
  if (starting !== null) return <div className="chat-message">Starting Claude Code in {starting}…</div>;
  return <ChatPane key={id} sessionId={id} place={{ turnId: turn ?? null, at: at ?? null, rewound: rewound === true, visit }} />;
}
