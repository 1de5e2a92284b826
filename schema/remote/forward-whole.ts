import {
  getNamedType,
  getOperationAST,
  GraphQLError,
  Kind,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type ExecutionArgs,
  type ExecutionResult,
  type FragmentDefinitionNode,
} from 'graphql';
import type { Context } from '../builder';
import { RemoteAnswerError } from './delegate';
import { hostRenamer, rewriteArgumentIds, rewriteResultIds } from './id-rewrite';

// The hub's fast path: a query whose every root field names objects of one linked host (a
// session, a goal, a transcript page, events) is sent to that host whole and its answer passed
// back with ids renamed, without running it on the hub first. It saves the hub a whole GraphQL
// execution per request. A query that asks for a Host anywhere takes the ordinary path, where
// the hub answers with its own record of the host.

const ROUTED: Record<string, string> = { session: 'id', goal: 'id', transcript: 'sessionId', events: 'sessionId' };

export async function forwardWhole(args: ExecutionArgs): Promise<ExecutionResult | null> {
  const ctx = args.contextValue as Context;
  if (!ctx.remotes.linked()) return null;
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'query') return null;
  const variables = (args.variableValues ?? {}) as Record<string, unknown>;
  let alias: string | null = null;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length || !(selection.name.value in ROUTED)) return null;
    const arg = selection.arguments?.find((a) => a.name.value === ROUTED[selection.name.value])?.value;
    const id = arg?.kind === Kind.STRING ? arg.value : arg?.kind === Kind.VARIABLE ? variables[arg.name.value] : undefined;
    const host = typeof id === 'string' ? id.split(':')[0] : null;
    if (!host || (alias !== null && host !== alias)) return null;
    alias = host;
  }
  if (!alias || asksForHost(args)) return null;
  let remote;
  try {
    remote = ctx.remotes.get(alias);
  } catch {
    return null; // down: the ordinary path says so
  }
  if (!remote) return null;
  const out = rewriteArgumentIds(args.schema, args.document, variables, hostRenamer(remote.alias, remote.remoteName));
  let data: Record<string, unknown>;
  try {
    data = await remote.query(print(out.document), out.variables, args.operationName ?? undefined);
  } catch (err) {
    if (err instanceof RemoteAnswerError) return { data: null, errors: [new GraphQLError(err.message, { extensions: { code: err.code } })] };
    throw err;
  }
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of args.document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  const back = hostRenamer(remote.remoteName, remote.alias);
  const query = args.schema.getQueryType()!.getFields();
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    const key = selection.alias?.value ?? selection.name.value;
    data[key] = rewriteResultIds(args.schema, data[key], query[selection.name.value].type, selection.selectionSet, fragments, back);
  }
  return { data };
}

/** Whether each parsed document asks for a Host: yoga reuses parsed documents, so this is asked once per query text. */
const hostAsked = new WeakMap<ExecutionArgs['document'], boolean>();

/** True when any selection of the document (fragments included) asks for a Host. */
function asksForHost(args: ExecutionArgs): boolean {
  const known = hostAsked.get(args.document);
  if (known !== undefined) return known;
  const typeInfo = new TypeInfo(args.schema);
  let found = false;
  visit(
    args.document,
    visitWithTypeInfo(typeInfo, {
      Field: () => {
        if (getNamedType(typeInfo.getType())?.name === 'Host') found = true;
      },
    }),
  );
  hostAsked.set(args.document, found);
  return found;
}
