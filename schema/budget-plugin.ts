import SchemaBuilder, { BasePlugin, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import type { OperationBudget } from './operation-budget';

// Charges every field a query or mutation resolves to its operation's budget, and every item of
// a list it returns: one Pothos plugin around every resolver, rather than a check in each.

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      operationBudget: OperationBudgetPlugin<Types>;
    }
  }
}

type Resolver<Types extends SchemaTypes> = GraphQLFieldResolver<unknown, Types['Context'], object>;

export class OperationBudgetPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override wrapResolve(resolver: Resolver<Types>): Resolver<Types> {
    return (parent, args, context, info) => {
      const budget = (context as { budget?: OperationBudget }).budget;
      if (!budget) return resolver(parent, args, context, info);
      budget.spend(1);
      const result = resolver(parent, args, context, info);
      if (Array.isArray(result)) budget.spend(result.length);
      // Once one item of a list fails, graphql-js stops waiting for its siblings, so their refusals
      // reject with nobody waiting: `loom up` logs those instead of dying (server/commands/up.ts).
      else if (result instanceof Promise)
        return result.then((value) => {
          if (Array.isArray(value)) budget.spend(value.length);
          return value;
        });
      return result;
    };
  }
}

SchemaBuilder.registerPlugin('operationBudget', OperationBudgetPlugin);
