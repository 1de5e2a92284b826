import { createRoute, lazyRouteComponent } from '@tanstack/react-router';
import { isRangeId, type RangeId } from '../usage/range';
import { rootRoute } from './root';

/**
 * `/usage?range=7d|30d|90d|all` (30 days without one): tokens and cost per day, model, host and session. Its page (and
 * recharts with it) is a chunk of its own, loaded when the route is first opened.
 */
export const usageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/usage',
  validateSearch: (search: Record<string, unknown>): { range?: RangeId } => (isRangeId(search.range) ? { range: search.range } : {}),
  component: lazyRouteComponent(() => import('../usage/UsagePane'), 'UsagePane'),
});
