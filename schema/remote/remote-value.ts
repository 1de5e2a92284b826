import {
  defaultFieldResolver,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isLeafType,
  isObjectType,
} from 'graphql';

// Values a hub got from another kernel, already resolved there. The hub serves them through its
// own schema: every field of a RemoteValue answers from the remote's JSON instead of calling a
// Source, so one schema serves local and remote objects side by side.

export class RemoteValue {
  constructor(
    /** the remote's JSON for this object, ids already rewritten to the hub's alias */
    readonly data: Record<string, unknown>,
    /** the alias the hub gave the host it came from */
    readonly host: string,
  ) {}
}

type HostObject = (alias: string, context: unknown) => unknown;

/** The JSON the remote sent for a field, as the local schema's resolvers would have answered it. */
function remoteField(parent: RemoteValue, context: unknown, info: GraphQLResolveInfo, hostObject: HostObject): unknown {
  const value = parent.data[info.path.key as string];
  const named = getNamedType(info.returnType);
  // a Host is the hub's own record of the host (its alias, status and trust), not the remote's
  if (named.name === 'Host') return hostObject(parent.host, context);
  return adopt(value, named, parent.host);
}

/** A remote's JSON for a value of this type, as local resolvers would have answered it. */
export function adopt(value: unknown, named: ReturnType<typeof getNamedType>, host: string): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => adopt(v, named, host));
  // an enum arrives by its name; the local schema serializes internal values
  if (isEnumType(named)) return named.getValue(String(value))?.value ?? value;
  if (isLeafType(named)) return value;
  return new RemoteValue(value as Record<string, unknown>, host);
}

/**
 * Makes every object field and abstract type of the schema serve RemoteValues too. Called once
 * on the built schema: a kernel that links no host never meets a RemoteValue, so nothing changes
 * for it.
 */
export function serveRemoteValues(schema: GraphQLSchema, hostObject: HostObject): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__')) continue;
    if (isObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        const local: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
        field.resolve = (parent, args, context, info) =>
          parent instanceof RemoteValue ? remoteField(parent, context, info, hostObject) : local(parent, args, context, info);
      }
    } else if (isAbstractType(type)) {
      const local = type.resolveType;
      type.resolveType = (value, context, info, abstractType) =>
        value instanceof RemoteValue ? (value.data.__typename as string) : local?.(value, context, info, abstractType);
    }
  }
}
