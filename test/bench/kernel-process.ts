import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import type { TadaDocumentNode } from 'gql.tada';
import { type DocumentNode, print } from 'graphql';
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import type { VariablesArg } from '../helpers/kernel';

// A kernel in its own process, as `loom up` runs it, and a keep-alive client for it: benches
// time what a separate client sees, never a kernel sharing the bench's event loop.

export const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');

export interface KernelProcess {
  name: string;
  /** the kernel's process, for what only the OS can tell (its memory) */
  pid: number;
  url: string;
  port: number;
  stateDir: string;
  token: string;
  /**
   * POSTs one operation over keep-alive HTTP and resolves with its data; rejects on any GraphQL
   * error. A typed document (`graphql()` of web/src/lib/graphql.ts) types the data and the variables.
   */
  gql<Result, Variables>(document: TadaDocumentNode<Result, Variables>, ...variables: VariablesArg<Variables>): Promise<Result>;
  /** A query as text (a bench times exactly what it sends): its data is `unknown`. */
  gql(query: string, variables?: Record<string, unknown>): Promise<unknown>;
  /** the same, with the response's Server-Timing header (a hub's fast path sends one) */
  timedGql(query: string, variables?: Record<string, unknown>): Promise<{ data: unknown; serverTiming: string | null }>;
  /** a graphql-ws client signed in with the token */
  ws(): Client;
  stop(): Promise<void>;
}

export interface KernelProcessOptions {
  name: string;
  projects: string;
  stateDir: string;
  /** the environment's HOME (a hub finds ~/.ssh there) */
  home?: string;
  /** more arguments for `loom up` (`--limit values=1000`) */
  args?: string[];
}

/** Starts `loom up --port 0` and resolves once it has indexed and printed its URL. */
export async function startKernelProcess(options: KernelProcessOptions): Promise<KernelProcess> {
  const env = { ...process.env };
  delete env.SSH_AUTH_SOCK; // the hub offers the temp HOME's key, nothing of the machine's
  if (options.home) env.HOME = options.home;
  const child = spawn(
    process.execPath,
    [LOOM, 'up', '--port', '0', '--projects', options.projects, '--state', options.stateDir, '--no-demo', '--name', options.name, ...(options.args ?? [])],
    { stdio: ['ignore', 'pipe', 'pipe'], env },
  );
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      // the link comes at once, the session count once the first index is done
      const m = /http:\/\/127\.0\.0\.1:\d+\//.exec(out);
      if (m && /\n\d+ sessions from /.test(out)) resolve(m[0]);
    });
    child.once('exit', (code) => reject(new Error(`loom up (${options.name}) exited with ${code}:\n${stderr}`)));
  });
  const token = readFileSync(join(options.stateDir, 'token'), 'utf8').trim();
  const agent = new Agent({ keepAlive: true, maxSockets: 16 });
  const clients: Client[] = [];
  function gql<Result, Variables>(document: TadaDocumentNode<Result, Variables>, ...variables: VariablesArg<Variables>): Promise<Result>;
  function gql(query: string, variables?: Record<string, unknown>): Promise<unknown>;
  async function gql(query: string | DocumentNode, variables?: unknown): Promise<unknown> {
    const text = typeof query === 'string' ? query : print(query);
    return (await postGql<unknown>(url, token, agent, text, variables as Record<string, unknown> | undefined)).data;
  }
  return {
    name: options.name,
    pid: child.pid!,
    url,
    port: Number(new URL(url).port),
    stateDir: options.stateDir,
    token,
    gql,
    timedGql: (query, variables) => postGql<unknown>(url, token, agent, query, variables),
    ws() {
      const client = createClient({ url: `${url.replace('http', 'ws')}graphql`, webSocketImpl: WebSocket, connectionParams: { token }, retryAttempts: 0 });
      clients.push(client);
      return client;
    },
    async stop() {
      await Promise.all(clients.map((c) => c.dispose()));
      agent.destroy();
      await stopChild(child);
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** POSTs one operation to the kernel at `url` (its Host), over whatever connections `agent` makes. */
export function postGql<T>(
  url: string,
  token: string,
  agent: Agent,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<{ data: T; serverTiming: string | null }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: hostname,
        port,
        path: '/graphql',
        method: 'POST',
        agent,
        headers: { 'x-loom-token': token, 'content-type': 'application/json', accept: 'application/json' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('error', reject);
        res.on('end', () => {
          const body = JSON.parse(text) as { data?: T; errors?: { message: string }[] };
          if (body.errors?.length) reject(new Error(`${body.errors[0].message} (in ${query.slice(0, 80)})`));
          else resolve({ data: body.data as T, serverTiming: (res.headers['server-timing'] as string | undefined) ?? null });
        });
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ query, variables }));
  });
}
