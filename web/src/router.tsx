import { createRouter } from '@tanstack/react-router';
import { feedRoute } from './routes/feed';
import { rootRoute } from './routes/root';
import { sessionRoute } from './routes/session';
import { settingsRoute } from './routes/settings';
import { timelineRoute } from './routes/timeline';

const routeTree = rootRoute.addChildren([feedRoute, sessionRoute, timelineRoute, settingsRoute]);

export const router = createRouter({ routeTree });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
