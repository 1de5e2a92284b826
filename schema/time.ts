import { GraphQLError } from 'graphql';

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 time argument as epoch ms; anything else is the caller's to fix. */
export function parseTime(name: string, value: string | null | undefined): number | null {
  if (value == null) return null;
  const t = RFC3339.test(value) ? Date.parse(value) : NaN;
  if (Number.isNaN(t)) {
    throw new GraphQLError(`"${name}" must be an RFC 3339 time such as 2026-01-31T09:00:00Z, got "${value}"`, { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return t;
}
