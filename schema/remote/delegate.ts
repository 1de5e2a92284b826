import {
  type ArgumentNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isScalarType,
  Kind,
  print,
  type SelectionSetNode,
  typeFromAST,
  visit,
} from 'graphql';
import { UnavailableError } from '../../spoke/model/source';
import { type IdMap, inlineListedIdVariables, namesHost, rewriteDocumentIds, rewriteResultIds, rewriteVariableIds } from './id-rewrite';
import { fitsSchema } from './remote-shape';
import { adopt, RemoteValue } from './remote-value';

// Delegation: the hub sends the one root field a client asked for, with the client's own
// selection, to the kernel that holds the data, and serves the answer through its schema. Ids
// are rewritten both ways; every selection also asks __typename, so unions resolve here.

/** An error the remote kernel answered with (its code kept): not a lost connection. */
export class RemoteAnswerError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** An error in a remote's answer, as the wire carries it. */
export interface RemoteError {
  message: string;
  path?: (string | number)[];
  extensions?: { code?: string };
}

/** A remote's whole answer: what data it has, and its errors. */
export interface RemoteResult {
  data: Record<string, unknown> | null;
  errors: RemoteError[];
}

/** One linked kernel as the schema sees it (federation/ provides it). */
export interface RemoteExecutor {
  /** the hub's name for the host */
  alias: string;
  /** the name the remote kernel gives itself */
  remoteName: string;
  /** an id as the remote kernel names it (the host part its own name) */
  toRemote: IdMap;
  /** an id from the remote kernel as the hub names it (the host part the alias) */
  fromRemote: IdMap;
  /** the data of one operation; rejects with RemoteAnswerError for the remote's errors */
  query(document: string, variables: Record<string, unknown>, operationName?: string): Promise<Record<string, unknown>>;
  /** the whole answer to one operation, data and errors alike; rejects only when there is none */
  execute(document: string, variables: Record<string, unknown>, operationName?: string): Promise<RemoteResult>;
  /** like query, for a read that depends only on the remote's sessions: answered again from the hub's copy until one of them changes (so it is shared: read it, never change it) */
  queryLists(document: string, variables: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** each event's data; throws RemoteAnswerError for the remote's errors, anything else when the link drops */
  subscribe(document: string, variables: Record<string, unknown>): AsyncIterableIterator<Record<string, unknown>>;
}

/** The hosts a hub links, as the schema routes to them (federation/ implements it). */
export interface RemoteDirectory {
  /** true when this kernel links any host: lists are then merged, with cursors over every host */
  linked(): boolean;
  /** false for a request that came through a hub: it gets this machine's sessions only, now and later */
  mayLink(): boolean;
  /** the kernel behind an alias; undefined when no linked host has that name; throws UnavailableError while it is down */
  get(alias: string): RemoteExecutor | undefined;
  /** the hosts that are up now */
  up(): RemoteExecutor[];
  /** every linked host's alias, up or not */
  aliases(): string[];
  /** wakes on any change of any linked host */
  changes(): AsyncIterableIterator<void>;
}

export interface Delegation {
  document: string;
  variables: Record<string, unknown>;
  /** reads the field's value out of the remote's data, ids rewritten, as RemoteValues */
  adopt(data: Record<string, unknown>): unknown;
}

/** The client's root field as an operation for `remote`, without the arguments named in `drop`, with those in `set` (which replace the client's). */
export function delegation(info: GraphQLResolveInfo, remote: RemoteExecutor, drop: string[] = [], set: ArgumentNode[] = []): Delegation {
  const defined = info.operation.variableDefinitions ?? [];
  const field = inlineListedIdVariables(mergedField(info.fieldNodes, [...drop, ...set.map((a) => a.name.value)], set), defined, info.variableValues);
  const fragments = usedFragments(field, info.fragments).map((f) => inlineListedIdVariables(f, defined, info.variableValues));
  const used = usedVariables([field, ...fragments]);
  const variableDefinitions = defined.filter((d) => used.has(d.variable.name.value));
  const operation: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: [
      {
        kind: Kind.OPERATION_DEFINITION,
        operation: info.operation.operation,
        variableDefinitions,
        selectionSet: { kind: Kind.SELECTION_SET, selections: [withTypenames(field)] },
      },
      ...fragments.map(withTypenames),
    ],
  };
  const variables: Record<string, unknown> = {};
  for (const definition of variableDefinitions) {
    const name = definition.variable.name.value;
    const type = typeFromAST(info.schema, definition.type as never) as GraphQLInputType | undefined;
    if (type && name in info.variableValues) variables[name] = wire(info.variableValues[name], type);
  }
  const rewritten = rewriteDocumentIds(info.schema, operation, remote.toRemote, namesHost(remote.alias));
  const fragmentMap = Object.fromEntries(fragments.map((f) => [f.name.value, f]));
  const key = info.path.key as string;
  return {
    document: print(rewritten.document),
    variables: rewriteVariableIds(variables, rewritten.idVariables, remote.toRemote, namesHost(remote.alias)),
    adopt: (data) => new RemoteValue({ [key]: hostAnswer(info.schema, data?.[key], info.returnType, field.selectionSet, fragmentMap, remote) }, remote.alias),
  };
}

/** A host's answer that is not what was asked: served, it would fail more than its own part. */
export class MisshapenAnswerError extends UnavailableError {
  constructor(alias: string) {
    super(`${alias} answered with data that does not fit the schema; its part is left out`);
  }
}

/**
 * A host's value for one field as the hub serves it: checked against what was asked, then its
 * ids renamed to the hub's (in place). Throws MisshapenAnswerError when it does not fit.
 */
export function hostAnswer(
  schema: GraphQLSchema,
  value: unknown,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  remote: RemoteExecutor,
): unknown {
  if (!fitsSchema(schema, value, type, selectionSet, fragments)) throw new MisshapenAnswerError(remote.alias);
  return rewriteResultIds(schema, value, type, selectionSet, fragments, remote.fromRemote);
}

/** Runs the client's root query field on a remote kernel and returns its value for the local schema. */
export async function delegateQuery(info: GraphQLResolveInfo, remote: RemoteExecutor, drop: string[] = []): Promise<unknown> {
  const { document, variables, adopt } = delegation(info, remote, drop);
  return fieldValue(adopt(await remote.query(document, variables)) as RemoteValue, info);
}

/** The field's own value out of an adopted root: a RemoteValue, a list of them, or a leaf. */
function fieldValue(root: RemoteValue, info: GraphQLResolveInfo): unknown {
  return adopt(root.data[info.path.key as string], getNamedType(info.returnType), root.host);
}

function mergedField(nodes: readonly FieldNode[], drop: string[], set: ArgumentNode[]): FieldNode {
  const [first] = nodes;
  const selections = nodes.flatMap((n) => n.selectionSet?.selections ?? []);
  const args = [...(first.arguments?.filter((a) => !drop.includes(a.name.value)) ?? []), ...set];
  return { ...first, arguments: args, selectionSet: first.selectionSet && { ...first.selectionSet, selections } };
}

/** `alias: name`, a field the hub adds to a remote selection for its own use (sorting, fences). */
export const aliasedField = (alias: string, name: string): FieldNode => ({
  kind: Kind.FIELD,
  alias: { kind: Kind.NAME, value: alias },
  name: { kind: Kind.NAME, value: name },
});

/** Adds __typename to every selection set: unions and interfaces resolve on the hub from it. */
export function withTypenames<T extends FieldNode | FragmentDefinitionNode | SelectionSetNode>(node: T): T {
  return visit(node, {
    SelectionSet: (set: SelectionSetNode) =>
      set.selections.some((s) => s.kind === Kind.FIELD && s.name.value === '__typename' && !s.alias)
        ? undefined
        : { ...set, selections: [...set.selections, { kind: Kind.FIELD, name: { kind: Kind.NAME, value: '__typename' } }] },
  }) as T;
}

/** The fragment definitions a node spreads, directly or through other fragments. */
export function usedFragments(field: FieldNode | SelectionSetNode, all: Record<string, FragmentDefinitionNode>): FragmentDefinitionNode[] {
  const found = new Map<string, FragmentDefinitionNode>();
  const walk = (node: FieldNode | FragmentDefinitionNode | SelectionSetNode) =>
    visit(node, {
      FragmentSpread: (spread) => {
        const name = spread.name.value;
        if (found.has(name) || !all[name]) return;
        found.set(name, all[name]);
        walk(all[name]);
      },
    });
  walk(field);
  return [...found.values()];
}

/**
 * A selection as text, with the fragments it uses: what a hub's kept answers are keyed by, so two
 * clients whose fragments share a name but not their fields never share an answer.
 */
export function selectionText(nodes: readonly (FieldNode | SelectionSetNode)[], all: Record<string, FragmentDefinitionNode>): string {
  const fragments = new Map(nodes.flatMap((n) => usedFragments(n, all)).map((f) => [f.name.value, f]));
  return [...nodes, ...fragments.values()].map((n) => print(n)).join('\n');
}

function usedVariables(nodes: (FieldNode | FragmentDefinitionNode)[]): Set<string> {
  const names = new Set<string>();
  for (const node of nodes) visit(node, { Variable: (v) => void names.add(v.name.value) });
  return names;
}

/** A coerced variable value as the wire carries it (enums by name, dates as strings). */
function wire(value: unknown, type: GraphQLInputType): unknown {
  if (value === null || value === undefined) return value;
  const nullable = getNullableType(type);
  if (isListType(nullable)) return (value as unknown[]).map((v) => wire(v, nullable.ofType));
  if (isEnumType(nullable) || isScalarType(nullable)) return nullable.serialize(value);
  if (isInputObjectType(nullable)) {
    const fields = nullable.getFields();
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, fields[k] ? wire(v, fields[k].type) : v]));
  }
  return value;
}
