import type { GraphQLField } from 'graphql';

// How a hub answers each root field, declared next to the field (`extensions: hubRoute(…)`) and
// applied in one place (routes.ts) and read by the hub's fast path (forward-whole.ts). A root
// field that declares nothing stops the schema from building: a new field is never silently
// local-only on a hub.

export type HubRoute =
  /** the hub answers it alone: its own kernel, its own links */
  | { kind: 'local' }
  /**
   * the host an id argument names (a session, a goal): asked there, or here for a local id. A
   * subscription is relayed as the host sends it; a `resumable` one (a session stream) picks up
   * from its cursor after the link drops (resumable-stream.ts)
   */
  | { kind: 'byHost'; arg: string; resumable?: true }
  /** every host that is up, merged by the named rule */
  | { kind: 'merged'; rule: 'sessions' | 'feed' | 'timeline' | 'usage' | 'changes' | 'list' | 'search' }
  /** its resolver asks the hosts it needs itself (a mutation over goals of several hosts) */
  | { kind: 'inResolver' };

export const hubRoute = (route: HubRoute): { hub: HubRoute } => ({ hub: route });

/** A root field's declared route; throws naming the field when it has none. */
export function declaredRoute(typeName: string, field: Pick<GraphQLField<unknown, never>, 'name' | 'extensions'>): HubRoute {
  const route = (field.extensions as { hub?: HubRoute } | undefined)?.hub;
  if (!route) throw new Error(`${typeName}.${field.name} declares no hub route: add extensions: hubRoute({ kind: … }) next to the field`);
  return route;
}
