import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { asClientError, contentLoader, loomSchema, type Context, type RemoteDirectory } from '../schema/index';
import type { HostDirectory, Source } from '../spoke/model/source';
import { TOKEN_HEADER } from './security/access';
import { limitsPlugin, type QueryLimits } from './security/limits';

// graphql-yoga over the Loom schema: one instance serves HTTP and, through its envelop, the
// graphql-ws WebSocket too, so both share context, limits and error masking.

export type LoomYoga = YogaServerInstance<Record<string, never>, Context>;

export function createLoomYoga(source: Source, hosts: HostDirectory & RemoteDirectory, limits: QueryLimits, log: (message: string) => void): LoomYoga {
  return createYoga<Record<string, never>, Context>({
    schema: loomSchema(),
    graphqlEndpoint: '/graphql',
    context: () => ({ source, hosts, remotes: hosts, content: contentLoader(source) }),
    // yoga's default CORS echoes any Origin with credentials; Loom answers its own page only.
    cors: false,
    // GraphiQL is served by server/http.ts, under its own Content-Security-Policy.
    graphiql: false,
    landingPage: false,
    logging: false,
    plugins: [
      limitsPlugin(limits),
      // A "simple" request (text/plain or form POST, header-less GET) is what a cross-site page
      // can send without a preflight: refuse it unless it carries a header only a tool sets.
      useCSRFPrevention({ requestHeaders: [TOKEN_HEADER, 'x-graphql-yoga-csrf'] }),
    ],
    maskedErrors: {
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
        const known = asClientError(original);
        if (known) return known;
        // A GraphQLError caused by nothing but GraphQL itself is about the request (a variable
        // of the wrong type, an unknown field): the caller can fix it, so it keeps its message.
        if (error instanceof GraphQLError && original instanceof GraphQLError) {
          return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: 'BAD_USER_INPUT', ...error.extensions } });
        }
        log(`internal error: ${(original as Error)?.stack ?? String(original)}`);
        return new GraphQLError(message, { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      },
    },
  });
}
