import { lexicographicSortSchema, printSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder';
import './types/scalars';
import './types/host';
import './types/content';
import './types/atom';
import './types/turn';
import './types/session';
import './types/session-list';
import './types/session-change';
import './types/stream';
import './types/transcript';
import './types/usage';
import './types/goal';
import './types/kernel';
import './types/timeline';

export type { Context } from './builder';
export { asClientError } from './errors';
export { contentLoader } from './content-loader';

let schema: GraphQLSchema | null = null;

/** The Loom GraphQL schema (built once). */
export function loomSchema(): GraphQLSchema {
  schema ??= builder.toSchema();
  return schema;
}

/** The schema as SDL, sorted, as checked in at schema/schema.graphql. */
export const printLoomSchema = (): string => `${printSchema(lexicographicSortSchema(loomSchema()))}\n`;
