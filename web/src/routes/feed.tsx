import { createRoute } from '@tanstack/react-router';
import { FeedPane } from '../feed/FeedPane';
import { rootRoute } from './root';

export const feedRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: FeedPane });
