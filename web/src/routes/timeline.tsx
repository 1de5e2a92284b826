import { createRoute } from '@tanstack/react-router';
import { TimelinePane } from '../timeline/TimelinePane';
import { rootRoute } from './root';

export const timelineRoute = createRoute({ getParentRoute: () => rootRoute, path: '/timeline', component: TimelinePane });
