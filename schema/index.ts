import { type GraphQLSchema, lexicographicSortSchema, printSchema } from 'graphql';
import { builder, type Context } from './builder';
import { serveRemoteValues } from './remote/remote-value';
import { routeToRemotes } from './remote/routes';
import { hostNamed } from './types/host';
import './types/scalars';
import './types/host';
import './types/content';
import './types/atom';
import './types/rewound-branch';
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
import './types/permission-request';
import './types/actions';
import './types/drive';
import './types/views';
import './types/search';

export type { Context } from './builder';
export { contentLoader } from './content-loader';
export { asClientError } from './errors';
export type { RemoteDirectory, RemoteExecutor } from './remote/delegate';

let schema: GraphQLSchema | null = null;

/** The Loom GraphQL schema (built once), serving local objects and, on a hub, remote ones. */
export function loomSchema(): GraphQLSchema {
  if (schema) return schema;
  schema = builder.toSchema();
  serveRemoteValues(schema, (alias, context) => hostNamed((context as Context).hosts.list(), alias));
  routeToRemotes(schema);
  return schema;
}

/** The schema as SDL, sorted, as checked in at schema/schema.graphql. */
export const printLoomSchema = (): string => `${printSchema(lexicographicSortSchema(loomSchema()))}\n`;
