import { GraphQLError } from 'graphql';

// Every id on the wire is host-qualified: `host:sessionKey`, `host:sessionKey:atomUuid`,
// `host:sessionKey:turnAnchor`. Keys and host names never contain a colon.

export const sessionId = (host: string, key: string): string => `${host}:${key}`;
export const childId = (host: string, key: string, part: string): string => `${host}:${key}:${part}`;

export function parseSessionId(id: string): { host: string; key: string } {
  const [host, key, ...rest] = id.split(':');
  if (!host || !key || rest.length > 0) {
    throw new GraphQLError(`"${id}" is not a session id; session ids look like "host:sessionKey"`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  return { host, key };
}

export function parseAtomId(id: string): { host: string; key: string; uuid: string } {
  const [host, key, uuid, ...rest] = id.split(':');
  if (!host || !key || !uuid || rest.length > 0) {
    throw new GraphQLError(`"${id}" is not an atom id; atom ids look like "host:sessionKey:atomUuid"`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  }
  return { host, key, uuid };
}
