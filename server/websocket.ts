import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { GraphQLError, getOperationAST } from 'graphql';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { type WebSocket, WebSocketServer } from 'ws';
import type { AccessPolicy } from './security/access';
import type { FailureThrottle } from './security/throttle';
import { checkedDocument, type Enveloped, type LoomYoga, viaHub } from './yoga';

// GraphQL subscriptions (and queries) over graphql-ws on /graphql, executed through yoga's
// envelop so the WebSocket gets the same schema, context, limits and error masking as HTTP.
//
// The upgrade is checked before it completes: Host must name this kernel; a browser's Origin
// must be this kernel's page. The token then comes in connection_init ({ token }), never in the
// URL; a browser on the kernel's own page may instead rely on its cookie.

const MAX_PAYLOAD = 1024 * 1024;
const MAX_SUBSCRIPTIONS = 100;
/** a hub carries the streams of all its clients to this kernel over one socket */
const MAX_SUBSCRIPTIONS_FOR_A_HUB = 2000;
const MAX_BUFFERED = 16 * 1024 * 1024;
const INIT_TIMEOUT_MS = 3000;
const WATCHDOG_MS = 1000;

interface Upgrade {
  cookie: boolean;
}

export interface WebSocketDeps {
  yoga: LoomYoga;
  /** queries and mutations one socket may run at once: a client's, and a linked hub's */
  operations: { socket: number; hubSocket: number };
  access: AccessPolicy;
  throttle: FailureThrottle;
  log: (message: string) => void;
}

export function attachWebSocket(server: Server, deps: WebSocketDeps): WebSocketServer {
  const { yoga, access, throttle, log, operations } = deps;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAYLOAD });
  const upgrades = new WeakMap<IncomingMessage, Upgrade>();
  /** the token fingerprint each socket signed in under */
  const signedIn = new Map<WebSocket, string>();
  /** subscriptions open or being set up, per socket (ctx.subscriptions fills only once set up) */
  const open = new WeakMap<WebSocket, Set<string>>();
  /** queries and mutations running, per socket, each with what stops it when the socket closes */
  const running = new WeakMap<WebSocket, Map<string, AbortController>>();
  const runningOn = (socket: WebSocket): Map<string, AbortController> => {
    let ops = running.get(socket);
    if (!ops) {
      const created = new Map<string, AbortController>();
      running.set(socket, created);
      // graphql-js cannot stop an execution; its resolvers see the signal and throw at once
      socket.once('close', () => {
        for (const op of created.values()) op.abort();
      });
      ops = created;
    }
    return ops;
  };

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://loom').pathname;
    const origin = req.headers.origin;
    if (path !== yoga.graphqlEndpoint) return reject(socket, 404, 'Not Found');
    if (!access.hostAllowed(req)) return reject(socket, 403, 'Forbidden');
    if (origin !== undefined && !access.originAllowed(origin)) return reject(socket, 403, 'Forbidden');
    upgrades.set(req, { cookie: origin !== undefined && access.credential(req) === 'cookie' });
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });

  useServer(
    {
      connectionInitWaitTimeout: INIT_TIMEOUT_MS,
      onConnect: async (ctx) => {
        const token = ctx.connectionParams?.token;
        const valid = () => access.validToken(typeof token === 'string' ? token : null) || !!upgrades.get(ctx.extra.request)?.cookie;
        if (throttle.check(ctx.extra.request.socket.remoteAddress ?? 'unknown', valid) === 'right') {
          signedIn.set(ctx.extra.socket, access.fingerprint());
          ctx.extra.socket.once('close', () => signedIn.delete(ctx.extra.socket));
          return true;
        }
        return false; // graphql-ws closes with 4403 Forbidden
      },
      onSubscribe: async (ctx, id, payload) => {
        const socket = ctx.extra.socket;
        const stop = new AbortController();
        const enveloped = yoga.getEnveloped({ ...ctx, req: ctx.extra.request, socket, signal: stop.signal, params: payload });
        const { document, errors } = checkedDocument(enveloped, payload.query);
        if (!document) return [...errors];
        const hub = viaHub({ connectionParams: ctx.connectionParams });
        // Counted before the first await, so a burst cannot slip past a limit while others are
        // being set up. A subscription is open until it ends; a query or mutation runs until its
        // answer (a hub sends all of them on one socket, beside its streams).
        if (getOperationAST(document, payload.operationName)?.operation === 'subscription') {
          const ids = open.get(socket) ?? new Set<string>();
          open.set(socket, ids);
          const limit = hub ? MAX_SUBSCRIPTIONS_FOR_A_HUB : MAX_SUBSCRIPTIONS;
          if (ids.size >= limit) {
            return [new GraphQLError(`at most ${limit} subscriptions per connection`, { extensions: { code: 'BAD_USER_INPUT' } })];
          }
          ids.add(id);
        } else {
          const ops = runningOn(socket);
          const limit = hub ? operations.hubSocket : operations.socket;
          if (ops.size >= limit) {
            const message = `at most ${limit} queries and mutations run at once on one connection: wait for an answer before asking more`;
            return [new GraphQLError(message, { extensions: { code: 'UNAVAILABLE' } })];
          }
          ops.set(id, stop);
        }
        try {
          return {
            schema: enveloped.schema,
            operationName: payload.operationName,
            document,
            variableValues: payload.variables,
            contextValue: await enveloped.contextFactory(),
            rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe, done: () => running.get(socket)?.delete(id) },
          };
        } catch (err) {
          running.get(socket)?.delete(id);
          throw err;
        }
      },
      onComplete: (ctx, id) => {
        open.get(ctx.extra.socket)?.delete(id);
        running.get(ctx.extra.socket)?.delete(id);
      },
      execute: async (args) => {
        const root = args.rootValue as Operation;
        try {
          return await root.execute(args);
        } finally {
          root.done();
        }
      },
      subscribe: (args) => (args.rootValue as Operation).subscribe(args),
    },
    wss,
  );

  const peers = new WeakMap<WebSocket, { name: string; socket: Socket }>();
  wss.on('connection', (ws: WebSocket, req: IncomingMessage) =>
    peers.set(ws, { name: `${req.socket.remoteAddress}:${req.socket.remotePort}`, socket: req.socket }),
  );
  /**
   * How far the OS has taken the client's bytes: it moves only as the client reads. Writes that
   * ended count in bytesWritten less writableLength; a write still under way (one frame can be
   * megabytes) only in what libuv has left of it, which Node keeps on the socket's handle.
   */
  const taken = (ws: WebSocket): string => {
    const socket = peers.get(ws)?.socket as (Socket & { _handle?: { writeQueueSize?: number } }) | undefined;
    return socket ? `${socket.bytesWritten - socket.writableLength}/${socket._handle?.writeQueueSize ?? 0}` : '';
  };

  // Once a second: `loom token --rotate` ends every socket opened with the old token, and a
  // client more than 16 MB behind at two looks in a row is dropped if it read nothing between
  // them (a hub taking a large answer over a slow link is reading; a client that stopped is not).
  // What one socket can pile up is bounded anyway: a stream queues its next frame only once the
  // last one left, and a socket holds at most MAX_SUBSCRIPTIONS (a hub's, for all its clients,
  // MAX_SUBSCRIPTIONS_FOR_A_HUB).
  const looks = new WeakMap<WebSocket, { buffered: number; taken: string }>();
  const watchdog = setInterval(() => {
    for (const socket of wss.clients) {
      const now = { buffered: socket.bufferedAmount, taken: taken(socket) };
      const before = looks.get(socket);
      looks.set(socket, now);
      if (before && before.buffered > MAX_BUFFERED && now.buffered > MAX_BUFFERED && now.taken === before.taken) {
        log(`dropping WebSocket client ${peers.get(socket)?.name ?? 'unknown'}: more than 16 MB behind and not reading`);
        socket.terminate();
      }
    }
    if (signedIn.size === 0) return;
    const current = access.fingerprint();
    for (const [socket, fingerprint] of signedIn) if (fingerprint !== current) socket.close(CloseCode.Forbidden, 'Token rotated');
  }, WATCHDOG_MS);
  watchdog.unref();
  wss.on('close', () => clearInterval(watchdog));
  return wss;
}

/** What onSubscribe hands graphql-ws's execute and subscribe: yoga's, and the release of the socket's place. */
type Operation = Pick<Enveloped, 'execute' | 'subscribe'> & { done: () => void };

function reject(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
