import { createClient as createWsClient } from 'graphql-ws';
import { Client, fetchExchange, subscriptionExchange } from 'urql';
import { connection } from './connection';

// One urql client for the page: queries and mutations over HTTP, subscriptions over one
// graphql-ws socket. The browser signs both in with the HttpOnly cookie the token link set.

const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;

export const ws = createWsClient({
  url: wsUrl,
  lazy: false,
  keepAlive: 10_000,
  // keep trying for as long as the page is open; the banner says what is going on
  retryAttempts: Number.POSITIVE_INFINITY,
  shouldRetry: () => true,
  retryWait: async (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(500 * 2 ** retries, 5_000))),
  on: {
    connected: () => connection.opened(),
    closed: () => connection.closed(),
  },
});

export const client = new Client({
  url: '/graphql',
  requestPolicy: 'network-only',
  // yoga's CSRF guard wants a non-simple request: POST with a JSON body, never GET
  preferGetMethod: false,
  fetchOptions: { credentials: 'same-origin', headers: { accept: 'application/graphql-response+json, application/json' } },
  exchanges: [
    fetchExchange,
    subscriptionExchange({
      forwardSubscription: (request) => ({
        subscribe: (sink) => ({ unsubscribe: ws.subscribe({ ...request, query: request.query ?? '' }, sink) }),
      }),
    }),
  ],
});
