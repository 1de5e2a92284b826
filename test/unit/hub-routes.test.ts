import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { describe, expect, it } from 'vitest';
import { loomSchema } from '../../schema/index';
import { declaredRoute } from '../../schema/remote/hub-route';
import { routeToRemotes } from '../../schema/remote/routes';

// Every root field says how a hub answers it, next to the field; one that says nothing stops
// the schema from building, so it is never silently local-only on a hub.

describe('hub routes', () => {
  it('are declared by every root field of the schema', () => {
    const schema = loomSchema();
    const routes = [schema.getQueryType()!, schema.getMutationType()!, schema.getSubscriptionType()!].flatMap((type) =>
      Object.values(type.getFields()).map((field) => [`${type.name}.${field.name}`, declaredRoute(type.name, field).kind]),
    );
    expect(Object.fromEntries(routes)).toMatchObject({
      'Query.session': 'byHost',
      'Query.transcript': 'byHost',
      'Query.sessions': 'merged',
      'Query.kernel': 'local',
      'Mutation.clearGoals': 'inResolver',
      'Subscription.sessionStream': 'byHost',
      'Subscription.feedChanged': 'merged',
    });
  });

  it('refuse a schema with a root field that declares none, naming it', () => {
    const field = (extensions?: Record<string, unknown>) => ({ type: GraphQLString, extensions, resolve: () => 'x' });
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({ name: 'Query', fields: { kernel: field({ hub: { kind: 'local' } }), newField: field() } }),
      mutation: new GraphQLObjectType({ name: 'Mutation', fields: { noop: field({ hub: { kind: 'local' } }) } }),
      subscription: new GraphQLObjectType({ name: 'Subscription', fields: { tick: field({ hub: { kind: 'local' } }) } }),
    });
    expect(() => routeToRemotes(schema)).toThrow('Query.newField declares no hub route');
  });
});
