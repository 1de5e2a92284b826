import { client } from './client';

// Thin promises over the urql client for the stores that keep their own state (lists that
// subscriptions patch): a GraphQL error becomes an Error with the server's message.

export async function query<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await client.query(document, variables).toPromise();
  if (result.error) throw new Error(result.error.message.replace(/^\[\w+\] /, ''));
  return result.data as T;
}

export async function mutate<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
  const result = await client.mutation(document, variables).toPromise();
  if (result.error) throw new Error(result.error.message.replace(/^\[\w+\] /, ''));
  return result.data as T;
}

/** Subscribes and calls `next` with each payload; returns the unsubscribe. */
export function subscribe<T>(document: string, variables: Record<string, unknown>, next: (data: T) => void): () => void {
  const { unsubscribe } = client.subscription(document, variables).subscribe((result) => {
    if (result.data) next(result.data as T);
  });
  return unsubscribe;
}
