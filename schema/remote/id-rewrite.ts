import {
  type ConstValueNode,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type FragmentSpreadNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  getNullableType,
  type InlineFragmentNode,
  isAbstractType,
  isListType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  TypeInfo,
  type TypeNode,
  type ValueNode,
  type VariableDefinitionNode,
  visit,
  visitWithTypeInfo,
} from 'graphql';

// Every id on the wire is `host:…`. A hub names each linked host by its own alias, so the host
// part of every ID crossing the hub is rewritten, one way going out (alias → the remote's own
// name) and back coming in, by walking the schema's types: no per-field code.

export type IdMap = (id: string) => string;

/** Renames the host part `from` to `to`; other ids pass unchanged. */
export function hostRenamer(from: string, to: string): IdMap {
  return (id) => (id === from ? to : id.startsWith(`${from}:`) ? `${to}${id.slice(from.length)}` : id);
}

/**
 * Names every id a remote sends by the hub's alias for it, whatever host the id claims. A kernel
 * names only its own objects (a hub never passes its links on), so an id naming another host is
 * a lie, and passed on as sent it would point the hub's clients, and what they do next (a
 * message to an agent, a clear), at this machine or another host. Renamed, it can only lead back
 * to the remote that sent it.
 */
export function claimedBy(remoteName: string, alias: string): IdMap {
  return (id) => {
    if (id === remoteName) return alias;
    const colon = id.indexOf(':');
    return colon === -1 ? `${alias}:${id}` : `${alias}${id.slice(colon)}`;
  };
}

/** Whether an id names an object of `host`. */
export const namesHost =
  (host: string) =>
  (id: string): boolean =>
    id === host || id.startsWith(`${host}:`);

/**
 * Rewrites the ID-typed literal arguments of a document, and names the variables that carry IDs
 * (for rewriteVariableIds): the document's part is the same for every request with that text.
 * A list of IDs keeps only those `ours` accepts: the rest name other hosts' objects, which the
 * host asked has no business seeing (a timeline narrowed to sessions of several hosts).
 */
export function rewriteDocumentIds(
  schema: GraphQLSchema,
  document: DocumentNode,
  map: IdMap,
  ours: (id: string) => boolean,
): { document: DocumentNode; idVariables: Set<string> } {
  const typeInfo = new TypeInfo(schema);
  const idVariables = new Set<string>();
  const rewriteValue = (node: ValueNode): ValueNode => {
    if (node.kind === Kind.STRING) return { ...node, value: map(node.value) };
    if (node.kind === Kind.LIST) return { ...node, values: node.values.filter((v) => v.kind !== Kind.STRING || ours(v.value)).map(rewriteValue) };
    if (node.kind === Kind.VARIABLE) idVariables.add(node.name.value);
    return node;
  };
  const rewritten = visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument: (node) => (getNamedType(typeInfo.getInputType())?.name === 'ID' ? { ...node, value: rewriteValue(node.value) } : undefined),
      // a variable left out takes its default, which the host reads as written: rename it too
      VariableDefinition: (node) =>
        node.defaultValue && innermostTypeName(node.type) === 'ID' ? { ...node, defaultValue: rewriteValue(node.defaultValue) as ConstValueNode } : undefined,
      ObjectField: (node) => (getNamedType(typeInfo.getInputType())?.name === 'ID' ? { ...node, value: rewriteValue(node.value) } : undefined),
    }),
  );
  return { document: rewritten, idVariables };
}

/**
 * A selection with every ID variable that stands in a list literal (`sessions: [$a, $b]`) put in
 * as its value, so the list can be cut to one host's ids like any literal list (a variable
 * cannot be). Done before the operation's variables are chosen: one put in is no longer sent.
 */
export function inlineListedIdVariables<T extends FieldNode | FragmentDefinitionNode>(
  node: T,
  definitions: readonly VariableDefinitionNode[],
  values: Record<string, unknown>,
): T {
  const idVariables = new Set(definitions.filter((d) => namedTypeOf(d.type) === 'ID').map((d) => d.variable.name.value));
  if (idVariables.size === 0) return node;
  return visit(node, {
    ListValue: (list) => ({
      ...list,
      values: list.values.map((v) => {
        const value = v.kind === Kind.VARIABLE && idVariables.has(v.name.value) ? values[v.name.value] : undefined;
        return typeof value === 'string' ? { kind: Kind.STRING, value } : v;
      }),
    }),
  }) as T;
}

/** The named type under any lists and non-nulls (`[ID!]` → `ID`). */
function innermostTypeName(type: TypeNode): string {
  return type.kind === Kind.NAMED_TYPE ? type.name.value : innermostTypeName(type.type);
}

/** `ID` for a variable declared `ID` or `ID!` (not a list of them). */
function namedTypeOf(type: TypeNode): string | null {
  if (type.kind === Kind.NAMED_TYPE) return type.name.value;
  return type.kind === Kind.NON_NULL_TYPE && type.type.kind === Kind.NAMED_TYPE ? type.type.name.value : null;
}

/** The variables with the IDs among them rewritten (a copy); lists keep only the IDs `ours` accepts. */
export function rewriteVariableIds(
  variables: Record<string, unknown>,
  idVariables: Set<string>,
  map: IdMap,
  ours: (id: string) => boolean,
): Record<string, unknown> {
  const out = { ...variables };
  for (const name of idVariables) {
    const value = out[name];
    if (typeof value === 'string') out[name] = map(value);
    else if (Array.isArray(value)) out[name] = value.filter((v) => typeof v !== 'string' || ours(v)).map((v) => (typeof v === 'string' ? map(v) : v));
  }
  return out;
}

/** Rewrites every ID in a result in place, following the selection that asked for it. */
export function rewriteResultIds(
  schema: GraphQLSchema,
  value: unknown,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
  map: IdMap,
): unknown {
  if (value === null || value === undefined) return value;
  const nullable = getNullableType(type);
  if (isListType(nullable)) return (value as unknown[]).map((v) => rewriteResultIds(schema, v, nullable.ofType, selectionSet, fragments, map));
  const named = getNamedType(nullable);
  if (named.name === 'ID') return typeof value === 'string' ? map(value) : value;
  if (!selectionSet || typeof value !== 'object') return value;
  const concrete = isAbstractType(named) ? schema.getType((value as { __typename?: string }).__typename ?? '') : named;
  if (!isObjectType(concrete)) return value;
  const object = value as Record<string, unknown>;
  for (const field of fieldsFor(schema, selectionSet, concrete, fragments)) {
    const def = concrete.getFields()[field.name.value];
    const key = field.alias?.value ?? field.name.value;
    if (def && key in object) object[key] = rewriteResultIds(schema, object[key], def.type, field.selectionSet, fragments, map);
  }
  return object;
}

/** fieldsFor's answers by selection and type: a list of objects asks the same of each. */
const fieldsMemo = new WeakMap<SelectionSetNode, Map<GraphQLObjectType, FieldNode[]>>();

/**
 * The fields a selection asks of an object of this type, through fragments and inline fragments.
 * A selection's fragments are its document's, so the answer is kept with the selection.
 */
export function fieldsFor(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode,
  type: GraphQLObjectType,
  fragments: Record<string, FragmentDefinitionNode>,
): FieldNode[] {
  let byType = fieldsMemo.get(selectionSet);
  if (!byType) {
    byType = new Map();
    fieldsMemo.set(selectionSet, byType);
  }
  let fields = byType.get(type);
  if (!fields) {
    fields = collectFields(schema, selectionSet, type, fragments);
    byType.set(type, fields);
  }
  return fields;
}

/** Fields a selection asks only under `@skip` or `@include`, itself or through a fragment: an answer may rightly lack them. */
const conditional = new WeakSet<FieldNode>();

/** Whether `@skip` or `@include` may have left this field out of an answer. */
export const mayBeLeftOut = (field: FieldNode): boolean => conditional.has(field);

const hasCondition = (node: FieldNode | InlineFragmentNode | FragmentSpreadNode): boolean =>
  !!node.directives?.some((d) => d.name.value === 'skip' || d.name.value === 'include');

function collectFields(
  schema: GraphQLSchema,
  selectionSet: SelectionSetNode,
  type: GraphQLObjectType,
  fragments: Record<string, FragmentDefinitionNode>,
): FieldNode[] {
  const applies = (condition: string | undefined) => {
    if (!condition || condition === type.name) return true;
    const conditionType = schema.getType(condition);
    return !!conditionType && isAbstractType(conditionType) && schema.isSubType(conditionType, type);
  };
  const fields: FieldNode[] = [];
  const take = (from: InlineFragmentNode | FragmentSpreadNode, inner: SelectionSetNode) => {
    const found = fieldsFor(schema, inner, type, fragments);
    if (hasCondition(from)) for (const field of found) conditional.add(field);
    fields.push(...found);
  };
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      if (hasCondition(selection)) conditional.add(selection);
      fields.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (applies(selection.typeCondition?.name.value)) take(selection, selection.selectionSet);
    } else {
      const fragment = fragments[selection.name.value];
      if (fragment && applies(fragment.typeCondition.name.value)) take(selection, fragment.selectionSet);
    }
  }
  return fields;
}
