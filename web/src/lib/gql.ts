import type { AnyVariables, OperationResult } from 'urql';
import { client } from './client';
import type { TadaDocumentNode } from './graphql';

// Thin promises over the urql client for the stores that keep their own state (lists that
// subscriptions patch): a GraphQL error becomes an ApiError with the server's message and code. Each takes a
// typed document (lib/graphql.ts) and answers with its result type; variables are checked too.

/** The variables argument: optional when the document needs none. */
type VariablesArg<Variables> = Record<never, never> extends Variables ? [variables?: Variables] : [variables: Variables];

/** An error the API answered with: its message, and its `extensions.code` (CONFLICT, NOT_FOUND…) when it gave one. */
export class ApiError extends Error {
  readonly code: string | null;
  constructor(message: string, code: string | null) {
    super(message);
    this.code = code;
  }
}

function dataOf<Result>(result: OperationResult<Result>): Result {
  if (result.error) {
    const code = result.error.graphQLErrors[0]?.extensions?.code;
    throw new ApiError(result.error.message.replace(/^\[\w+\] /, ''), typeof code === 'string' ? code : null);
  }
  return result.data as Result;
}

/** The API refused a whole write because what it was made from has changed since. */
export const isConflict = (err: unknown): boolean => err instanceof ApiError && err.code === 'CONFLICT';

export async function query<Result, Variables extends AnyVariables>(
  document: TadaDocumentNode<Result, Variables>,
  ...[variables]: VariablesArg<Variables>
): Promise<Result> {
  return dataOf(await client.query(document, (variables ?? {}) as Variables).toPromise());
}

export async function mutate<Result, Variables extends AnyVariables>(
  document: TadaDocumentNode<Result, Variables>,
  ...[variables]: VariablesArg<Variables>
): Promise<Result> {
  return dataOf(await client.mutation(document, (variables ?? {}) as Variables).toPromise());
}

/** Subscribes and calls `next` with each payload; returns the unsubscribe. */
export function subscribe<Result, Variables extends AnyVariables>(
  document: TadaDocumentNode<Result, Variables>,
  variables: Variables,
  next: (data: Result) => void,
): () => void {
  const { unsubscribe } = client.subscription(document, variables).subscribe((result) => {
    if (result.data) next(result.data);
  });
  return unsubscribe;
}
