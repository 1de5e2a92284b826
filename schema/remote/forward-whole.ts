import {
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  Kind,
  print,
  TypeInfo,
  visit,
  visitWithTypeInfo,
} from 'graphql';
import { asClientError } from '../errors';
import { hostAnswer, type RemoteDirectory, type RemoteResult } from './delegate';
import { declaredRoute } from './hub-route';
import { namesHost, rewriteDocumentIds, rewriteVariableIds } from './id-rewrite';

// The hub's fast path: a query whose every root field names objects of one linked host (a
// session, a goal, a transcript page, events) is sent to that host whole and its answer passed
// back with ids renamed, without running it on the hub. The plan is made once per query text;
// per request only the variables and the answer's ids are rewritten. A query that asks for a
// Host anywhere is not forwarded: the hub answers with its own record of the host.

/** The id argument of a query field declared to go to the host its id names (hub-route.ts), or null. */
function routedArg(schema: GraphQLSchema, name: string): string | null {
  const field = schema.getQueryType()!.getFields()[name];
  const route = field ? declaredRoute('Query', field) : null;
  return route?.kind === 'byHost' ? route.arg : null;
}

/** Where a root field's id comes from: a literal in the query or a variable. */
type IdSource = { literal: string } | { variable: string };

export interface ForwardPlan {
  schema: GraphQLSchema;
  document: DocumentNode;
  operationName: string | undefined;
  roots: FieldNode[];
  ids: IdSource[];
  fragments: Record<string, FragmentDefinitionNode>;
  /** the query as each remote is sent it, by `alias→remoteName` */
  outgoing: Map<string, { query: string; idVariables: Set<string> }>;
}

/** The plan to forward an operation whole, or null when the hub must execute it itself. */
export function forwardPlan(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): ForwardPlan | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query') return null;
  const roots: FieldNode[] = [];
  const ids: IdSource[] = [];
  for (const selection of operation.selectionSet.selections) {
    const routed = selection.kind === Kind.FIELD ? routedArg(schema, selection.name.value) : null;
    if (selection.kind !== Kind.FIELD || selection.directives?.length || !routed) return null;
    const arg = selection.arguments?.find((a) => a.name.value === routed)?.value;
    if (arg?.kind === Kind.STRING) ids.push({ literal: arg.value });
    else if (arg?.kind === Kind.VARIABLE) ids.push({ variable: arg.name.value });
    else return null;
    roots.push(selection);
  }
  if (roots.length === 0 || asksForHost(schema, document)) return null;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
  return { schema, document, operationName, roots, ids, fragments, outgoing: new Map() };
}

export interface Forwarded {
  /** the alias of the host that answered */
  host: string;
  result: ExecutionResult;
  /** how long the host took to answer, as the hub waited for it */
  remoteMs: number;
}

/**
 * Sends a planned operation to its one host and returns the answer with ids renamed; null when it
 * must take the ordinary path (ids of several hosts or of this one, a host unknown or down), which
 * then answers or says what is wrong.
 */
export async function forwardWhole(plan: ForwardPlan, variables: Record<string, unknown>, remotes: RemoteDirectory): Promise<Forwarded | null> {
  let alias: string | null = null;
  for (const source of plan.ids) {
    const id = 'literal' in source ? source.literal : variables[source.variable];
    const host = typeof id === 'string' ? id.split(':')[0] : null;
    if (!host || (alias !== null && host !== alias)) return null;
    alias = host;
  }
  let remote: ReturnType<RemoteDirectory['get']> | undefined;
  try {
    remote = alias ? remotes.get(alias) : undefined;
  } catch {
    return null; // down
  }
  if (!remote) return null;
  const key = `${remote.alias}→${remote.remoteName}`;
  let outgoing = plan.outgoing.get(key);
  if (!outgoing) {
    const rewritten = rewriteDocumentIds(plan.schema, plan.document, remote.toRemote, namesHost(remote.alias));
    outgoing = { query: print(rewritten.document), idVariables: rewritten.idVariables };
    plan.outgoing.set(key, outgoing);
  }
  let answer: RemoteResult;
  const asked = performance.now();
  try {
    answer = await remote.execute(
      outgoing.query,
      rewriteVariableIds(variables, outgoing.idVariables, remote.toRemote, namesHost(remote.alias)),
      plan.operationName,
    );
  } catch (err) {
    // no answer (UNAVAILABLE): asking again on the ordinary path would only wait twice
    const known = asClientError(err);
    if (known) return { host: remote.alias, result: { data: null, errors: [known] }, remoteMs: performance.now() - asked };
    return null;
  }
  const remoteMs = performance.now() - asked;
  const { data } = answer;
  if (data) {
    const query = plan.schema.getQueryType()!.getFields();
    try {
      for (const root of plan.roots) {
        const key = root.alias?.value ?? root.name.value;
        data[key] = hostAnswer(plan.schema, data[key], query[root.name.value].type, root.selectionSet, plan.fragments, remote);
      }
    } catch (err) {
      return { host: remote.alias, result: { data: null, errors: [asClientError(err)!] }, remoteMs };
    }
  }
  // the remote's errors as they are (their locations are in the printed copy it was sent, so not kept)
  const errors = answer.errors.map((e) => new GraphQLError(e.message, { path: e.path, extensions: { code: e.extensions?.code ?? 'UNAVAILABLE' } }));
  return { host: remote.alias, result: errors.length ? { data, errors } : { data }, remoteMs };
}

/** True when any selection of the document (fragments included) asks for a Host. */
function asksForHost(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field: () => {
        if (getNamedType(typeInfo.getType())?.name === 'Host') found = true;
      },
    }),
  );
  return found;
}
