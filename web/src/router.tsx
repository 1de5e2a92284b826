import { createRouter } from '@tanstack/react-router';
import { feedRoute } from './routes/feed';
import { rootRoute } from './routes/root';
import { sessionRoute } from './routes/session';
import { settingsRoute } from './routes/settings';
import { timelineRoute } from './routes/timeline';
import { usageRoute } from './routes/usage';

const routeTree = rootRoute.addChildren([feedRoute, sessionRoute, timelineRoute, usageRoute, settingsRoute]);

export const router = createRouter({ routeTree });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
  interface HistoryState {
    /** when a search hit was opened: the same link opened again is a new visit (routes/session.tsx) */
    searchHit?: number;
  }
}
