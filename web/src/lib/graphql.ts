import { initGraphQLTada } from 'gql.tada';
import type { introspection, introspection_types } from '../graphql-env';

// The dashboard's GraphQL documents are typed from the checked-in schema/schema.graphql:
// graphql-env.d.ts is that schema as a type (`npm run schema:print` writes both), and every
// document written with `graphql(...)` carries its result and variables types. A field that is
// not in the schema, or a result read the wrong way, fails `npm run typecheck`.

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: {
    /** ISO 8601, as the kernel sends it */
    DateTime: string;
    JSON: unknown;
  };
}>();

export type { FragmentOf, ResultOf, TadaDocumentNode, VariablesOf } from 'gql.tada';
export { readFragment } from 'gql.tada';

type EnumName = { [K in keyof introspection_types]: introspection_types[K] extends { enumValues: unknown } ? K : never }[keyof introspection_types];

/** The values of one of the schema's enums, e.g. `Enum<'GoalStatus'>`. */
export type Enum<Name extends EnumName> = introspection_types[Name] extends { enumValues: infer V } ? V : never;
