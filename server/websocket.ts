import type { Server } from 'node:http';
import { GraphQLError } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { LoomYoga } from './yoga';

// GraphQL subscriptions (and queries) over graphql-ws on /graphql, executed through yoga's
// envelop so the WebSocket gets the same schema, context and error masking as HTTP.

export function attachWebSocket(server: Server, yoga: LoomYoga): WebSocketServer {
  const wss = new WebSocketServer({ server, path: yoga.graphqlEndpoint });
  useServer(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onSubscribe: async (ctx, _id, payload) => {
        const enveloped = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket: ctx.extra.socket, params: payload });
        let document;
        try {
          document = enveloped.parse(payload.query);
        } catch (err) {
          return [err instanceof GraphQLError ? err : new GraphQLError(String(err), { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })];
        }
        const args = {
          schema: enveloped.schema,
          operationName: payload.operationName,
          document,
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
        const errors = enveloped.validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    wss,
  );
  return wss;
}

type Enveloped = ReturnType<LoomYoga['getEnveloped']>;
