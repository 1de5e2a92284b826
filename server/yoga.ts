import type { IncomingMessage } from 'node:http';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { type DocumentNode, GraphQLError } from 'graphql';
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { asClientError, type Context, contentLoader, loomSchema, type RemoteDirectory } from '../schema/index';
import type { Actions } from '../spoke/act/actions';
import type { Driving } from '../spoke/drive/driving';
import { Pulse } from '../spoke/model/pulse';
import type { HostDirectory, Source } from '../spoke/model/source';
import type { ViewsStore } from '../spoke/views/views-store';
import { TOKEN_HEADER, VIA_HUB_HEADER } from './security/access';
import { limitsPlugin, type QueryLimits } from './security/limits';
import { noSuggestionsPlugin } from './security/no-suggestions';
import { operationBoundsPlugin } from './security/operation-bounds';

// graphql-yoga over the Loom schema: one instance serves HTTP and, through its envelop, the
// graphql-ws WebSocket too, so both share context, limits and error masking.

const NO_REMOTES: RemoteDirectory = {
  linked: () => false,
  mayLink: () => false,
  get: () => undefined,
  up: () => [],
  aliases: () => [],
  changes: () => new Pulse(),
};

/** A request a hub sends on behalf of its clients (see VIA_HUB_HEADER). */
export function viaHub(init: { request?: Request; connectionParams?: Record<string, unknown> }): boolean {
  return init.request?.headers.get(VIA_HUB_HEADER) === '1' || init.connectionParams?.viaHub === true;
}

/** Who acts, for the audit log: this machine's owner, or a hub by the name it gives (`hub:<name>`). */
function actorOf(init: { request?: Request; connectionParams?: Record<string, unknown> }): string {
  if (!viaHub(init)) return 'local';
  const name = init.connectionParams?.hubName;
  return typeof name === 'string' && /^[\w.-]{1,64}$/.test(name) ? `hub:${name}` : 'hub';
}

/** What a request brings to yoga: Node's request over HTTP; a WebSocket operation, its socket and signal too. */
export interface ServerContext {
  req?: IncomingMessage;
  socket?: object;
  signal?: AbortSignal;
  connectionParams?: Record<string, unknown>;
}

export type LoomYoga = YogaServerInstance<ServerContext, Context>;

export function createLoomYoga(
  source: Source,
  actions: Actions,
  driving: Driving,
  views: ViewsStore,
  hosts: HostDirectory & RemoteDirectory,
  limits: QueryLimits,
  log: (message: string) => void,
): LoomYoga {
  return createYoga<ServerContext, Context>({
    schema: loomSchema(),
    graphqlEndpoint: '/graphql',
    // A hub asking on behalf of its own clients gets this machine's sessions only: a remote's own
    // links are never re-exported, so links cannot loop.
    context: (init) => ({
      source,
      actions,
      driving,
      views,
      actor: actorOf(init),
      hosts,
      remotes: viaHub(init) ? NO_REMOTES : hosts,
      content: contentLoader(source),
      // the WebSocket passes its operation's signal and socket; HTTP has the request's
      signal: init.signal ?? init.request?.signal ?? null,
      requester: init.socket ?? init.req?.socket ?? init.request,
    }),
    // yoga's default CORS echoes any Origin with credentials; Loom answers its own page only.
    cors: false,
    // GraphiQL is served by server/http.ts, under its own Content-Security-Policy.
    graphiql: false,
    landingPage: false,
    logging: false,
    plugins: [
      // first: its validation hook runs before graphql-armor's, which would mask a suggestion with a note
      noSuggestionsPlugin(),
      limitsPlugin(limits),
      operationBoundsPlugin(limits),
      // A "simple" request (text/plain or form POST, header-less GET) is what a cross-site page
      // can send without a preflight: refuse it unless it carries a header only a tool sets.
      useCSRFPrevention({ requestHeaders: [TOKEN_HEADER, 'x-graphql-yoga-csrf'] }),
    ],
    maskedErrors: {
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? (error.originalError ?? error) : error;
        const known = asClientError(original);
        // where it happened stays with it: `path` says which field of the answer is missing
        if (known)
          return error instanceof GraphQLError
            ? new GraphQLError(known.message, { nodes: error.nodes, path: error.path, extensions: known.extensions })
            : known;
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

export type Enveloped = ReturnType<LoomYoga['getEnveloped']>;

/**
 * A query text as yoga's envelop judges it, limits included (they refuse while parsing and
 * validating, by throwing or by returning errors): its document, or why it is refused.
 */
export function checkedDocument(
  enveloped: Enveloped,
  query: string,
): { document: DocumentNode; errors: [] } | { document: null; errors: readonly GraphQLError[] } {
  try {
    const document = enveloped.parse(query);
    const errors = enveloped.validate(enveloped.schema, document);
    return errors.length > 0 ? { document: null, errors } : { document, errors: [] };
  } catch (err) {
    return {
      document: null,
      errors: [err instanceof GraphQLError ? err : new GraphQLError('The request could not be parsed.', { extensions: { code: 'GRAPHQL_PARSE_FAILED' } })],
    };
  }
}
