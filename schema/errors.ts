import { GraphQLError } from 'graphql';
import { BadInputError, ConflictError, ForbiddenError, NotFoundError, UnavailableError } from '../spoke/model/source';
import { RemoteAnswerError } from './remote/delegate';

// Errors a caller can act on keep their message and get a code; anything else is an internal
// error and is masked by the server.

export function asClientError(error: unknown): GraphQLError | null {
  if (error instanceof GraphQLError && error.extensions?.code) return error;
  if (error instanceof NotFoundError) return new GraphQLError(error.message, { extensions: { code: 'NOT_FOUND' } });
  if (error instanceof BadInputError) return new GraphQLError(error.message, { extensions: { code: 'BAD_USER_INPUT' } });
  // a linked host's own answer keeps its code (its host names already in the hub's alias)
  if (error instanceof RemoteAnswerError) return new GraphQLError(error.message, { extensions: { code: error.code } });
  if (error instanceof ForbiddenError) return new GraphQLError(error.message, { extensions: { code: 'FORBIDDEN' } });
  if (error instanceof ConflictError) return new GraphQLError(error.message, { extensions: { code: 'CONFLICT' } });
  if (error instanceof UnavailableError) return new GraphQLError(error.message, { extensions: { code: 'UNAVAILABLE' } });
  return null;
}
