import {
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNullableType,
  isAbstractType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  type SelectionSetNode,
} from 'graphql';
import { fieldsFor, mayBeLeftOut } from './id-rewrite';

// What a remote kernel answers is another machine's word, and that machine may have been taken
// over. Served through the hub's schema, a value of the wrong shape (a null where the schema has
// none, a number for a name) fails the field and, through every non-null parent, the list it
// sits in: one bad session of one host would blank the merged list of all of them. So each
// remote value is checked against what was asked before the hub serves or merges it.

/** Whether a remote's value has the shape the selection asks of this type, all the way down. */
export function fitsSchema(
  schema: GraphQLSchema,
  value: unknown,
  type: GraphQLOutputType,
  selectionSet: SelectionSetNode | undefined,
  fragments: Record<string, FragmentDefinitionNode>,
): boolean {
  if (value === null || value === undefined) return !isNonNullType(type);
  const nullable = getNullableType(type);
  if (isListType(nullable)) return Array.isArray(value) && value.every((v) => fitsSchema(schema, v, nullable.ofType, selectionSet, fragments));
  if (!isObjectType(nullable) && !isAbstractType(nullable)) return fitsLeaf(nullable, value);
  if (typeof value !== 'object' || Array.isArray(value) || !selectionSet) return false;
  const object = value as Record<string, unknown>;
  // A query forwarded whole is the client's own, which may not ask which member of a union it
  // got: such an object cannot be judged here (the one union, ContentBlock, holds no ids).
  if (isAbstractType(nullable) && object.__typename === undefined) return true;
  const concrete = isAbstractType(nullable) ? schema.getType(String(object.__typename)) : nullable;
  if (!isObjectType(concrete) || (isAbstractType(nullable) && !schema.isSubType(nullable, concrete))) return false;
  for (const field of fieldsFor(schema, selectionSet, concrete, fragments)) {
    const def = concrete.getFields()[field.name.value];
    const key = field.alias?.value ?? field.name.value;
    if (!def || (!(key in object) && mayBeLeftOut(field))) continue;
    if (!fitsSchema(schema, object[key], def.type, field.selectionSet, fragments)) return false;
  }
  return true;
}

function fitsLeaf(type: GraphQLNamedType, value: unknown): boolean {
  switch (type.name) {
    case 'ID':
      return typeof value === 'string' || Number.isInteger(value);
    case 'String':
      return typeof value === 'string';
    case 'Int':
      // GraphQL's Int is 32 bits: a larger one fails when the hub serves it
      return Number.isInteger(value) && (value as number) >= -(2 ** 31) && (value as number) < 2 ** 31;
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'Boolean':
      return typeof value === 'boolean';
  }
  if (isEnumType(type)) return typeof value === 'string' && type.getValue(value) !== undefined;
  try {
    // a custom scalar (DateTime, JSON) judges its own values as it would serve them
    (type as { serialize(v: unknown): unknown }).serialize(value);
    return true;
  } catch {
    return false;
  }
}
