import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TadaDocumentNode } from 'gql.tada';
import { type DocumentNode, type GraphQLFormattedError, print } from 'graphql';
import { type Client, createClient, type FormattedExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';
import { parseLinkedHost, saveLinkedHost } from '../../federation/hosts-config';
import { type Kernel, type KernelOptions, startKernel } from '../../server/kernel';
import { DEFAULT_LIMITS, type QueryLimits } from '../../server/security/limits';

export const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'claude-projects');

/** Link timings for tests: a lost host is noticed, and retried, within a second. */
export const FAST_LINKS = { keepaliveMs: 300, backoff: { baseMs: 100, capMs: 400 } };

export interface TestKernel extends Kernel {
  stateDir: string;
  logs: string[];
  token: string;
  /** fetches a path of this kernel with the owner's token header */
  fetch(path: string, init?: RequestInit): Promise<Response>;
  /**
   * POSTs a GraphQL operation and returns the whole response body. A typed document (`graphql()`
   * of web/src/lib/graphql.ts, the dashboard's own from its queries.ts files) types the answer
   * and the variables; `data` is typed as the schema answers it when there are no `errors`.
   */
  gql<Result, Variables>(document: TadaDocumentNode<Result, Variables>, ...variables: VariablesArg<Variables>): Promise<GqlResponse<Result>>;
  /**
   * A query as text: for one the schema refuses on purpose, or built at run time. Its `data` is
   * `unknown`, unless the caller names the shape it reads (`gql<{ session: { id: string } }>(text)`).
   */
  gql<Data = unknown>(query: string, variables?: Record<string, unknown>): Promise<GqlResponse<Data>>;
  /** a graphql-ws client connected to this kernel, signed in with the token */
  ws(): Client;
}

/** The variables argument: optional when the document needs none. */
export type VariablesArg<Variables> = Record<never, never> extends Variables ? [variables?: Variables] : [variables: Variables];

export interface GqlResponse<Result> {
  data: Result;
  errors?: GraphQLFormattedError[];
}

/**
 * Subscribes on a graphql-ws client with a typed document (`graphql()` of web/src/lib/graphql.ts):
 * the frames `client.iterate` gives, each one's `data` typed as the schema answers the document.
 */
export function iterate<Result, Variables>(
  client: Client,
  document: TadaDocumentNode<Result, Variables>,
  ...variables: VariablesArg<Variables>
): AsyncIterableIterator<FormattedExecutionResult<Result, unknown>, undefined> {
  return client.iterate<Result>({ query: print(document), variables: variables[0] as Record<string, unknown> | undefined });
}

export interface TestKernelOptions {
  hostName?: string;
  awakeLimit?: number;
  /** reuse a state dir (it is then left in place on close) */
  stateDir?: string;
  /** listen on this port (to restart a kernel where a client expects it); 0 by default */
  port?: number;
  /** how linked hosts are reached: a temp HOME with .ssh, short timings */
  federation?: KernelOptions['federation'];
  /** the kernel's clock; the real one by default */
  now?: () => number;
  /** GraphQL limits and bounds; the defaults otherwise */
  limits?: Partial<QueryLimits>;
  httpTimeouts?: KernelOptions['httpTimeouts'];
  throttle?: KernelOptions['throttle'];
  /** the `claude` driven sessions run (a stand-in) */
  claudePath?: string;
  /** Loom's copy of the transcripts: off unless a test is about it (its pass is work every other test would wait on) */
  archive?: KernelOptions['archive'];
  /** the search index: off unless a test is about it, for the same reason */
  search?: boolean;
  /** index workers for the first read: none unless a test is about them, so every machine runs the same path */
  indexWorkers?: number;
}

/** `node` and the CLI as absolute paths: a command a hub may run on a linked host (hosts.json) */
export const LOOM_COMMAND = `${process.execPath} ${join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js')}`;

/**
 * What `loom link <target> --command … --remote-state …` writes into a hub's hosts.json (the only
 * way to say how a hub runs loom on a host); a linkHost for the target then uses it.
 */
export function configureRemote(hub: { stateDir: string }, host: { name: string; target: string; stateDir?: string; command?: string }): void {
  saveLinkedHost(hub.stateDir, parseLinkedHost({ ...host, command: host.command ?? LOOM_COMMAND }));
}

/** Starts a real kernel on a free loopback port over the given projects dir, and waits for its first index. */
export async function startTestKernel(projectsRoot: string, options: TestKernelOptions = {}): Promise<TestKernel> {
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), 'loom-state-'));
  const logs: string[] = [];
  const kernel = await startKernel({
    projectsRoot,
    stateDir,
    port: options.port ?? 0,
    federation: options.federation,
    hostName: options.hostName ?? 'test',
    awakeLimit: options.awakeLimit,
    now: options.now,
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    httpTimeouts: options.httpTimeouts,
    throttle: options.throttle,
    claudePath: options.claudePath,
    archive: options.archive ?? false,
    search: options.search ?? false,
    indexWorkers: options.indexWorkers ?? 0,
    log: (m) => logs.push(m),
  });
  await kernel.indexed;
  const clients: Client[] = [];
  const token = kernel.access.token();
  const fetchKernel = (path: string, init: RequestInit = {}) =>
    fetch(`${kernel.url}${path.replace(/^\//, '')}`, { ...init, headers: { 'x-loom-token': token, ...init.headers } });
  function gql<Result, Variables>(document: TadaDocumentNode<Result, Variables>, ...variables: VariablesArg<Variables>): Promise<GqlResponse<Result>>;
  function gql<Data = unknown>(query: string, variables?: Record<string, unknown>): Promise<GqlResponse<Data>>;
  async function gql(query: string | DocumentNode, variables?: unknown): Promise<GqlResponse<unknown>> {
    const res = await fetchKernel('graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query: typeof query === 'string' ? query : print(query), variables }),
    });
    return (await res.json()) as GqlResponse<unknown>;
  }
  return {
    ...kernel,
    stateDir,
    logs,
    token,
    fetch: fetchKernel,
    gql,
    ws() {
      const client = createClient({
        url: `${kernel.url.replace('http', 'ws')}graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { token },
        lazy: true,
        retryAttempts: 0,
      });
      clients.push(client);
      return client;
    },
    async close() {
      await Promise.all(clients.map((c) => c.dispose()));
      await kernel.close();
      if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
