import { request, type Agent } from 'node:http';
import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { RemoteAnswerError, type RemoteError, type RemoteResult } from '../schema/remote/delegate';
import { mapIterator } from '../schema/remote/map-iterator';
import { TOKEN_HEADER, VIA_HUB_HEADER } from '../server/security/access';

// The hub's client of one remote kernel, through the tunnel's agent (federation/tunnel.ts):
// queries over HTTP with keep-alive (a new channel per request would cost a round trip each),
// subscriptions over one graphql-ws socket. Requests name 127.0.0.1 and the port the kernel
// listens on there, which is what its Host check expects.

const MAX_ANSWER = 64 * 2 ** 20;
const ANSWER_TIMEOUT_MS = 15_000;
/** Requests on their way at once; each takes a channel of its own, so this bounds them too. */
const MAX_IN_FLIGHT = 8;

export class RemoteClient {
  private socket: WsClient | null = null;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly agent: Agent,
    private readonly remotePort: number,
    private readonly token: string,
  ) {}

  /** POSTs one operation; rejects with the remote's first error. */
  async query<T>(query: string, variables: Record<string, unknown> = {}, operationName?: string): Promise<T> {
    const { data, errors } = await this.execute(query, variables, operationName);
    const [error] = errors;
    if (error) throw new RemoteAnswerError(error.message, error.extensions?.code ?? 'UNAVAILABLE');
    return data as T;
  }

  /** POSTs one operation and gives its whole answer, data and errors alike. */
  async execute(query: string, variables: Record<string, unknown> = {}, operationName?: string): Promise<RemoteResult> {
    // a mutation is never sent twice: the remote may have done it before its channel closed
    const resend = !/^\s*mutation\b/.test(query);
    const { status, body } = await this.send('POST', '/graphql', JSON.stringify({ query, variables, operationName }), resend);
    let parsed: { data?: Record<string, unknown> | null; errors?: RemoteError[] };
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new RemoteAnswerError(`the remote kernel answered ${status} with no JSON`, 'UNAVAILABLE');
    }
    return { data: parsed.data ?? null, errors: parsed.errors ?? [] };
  }

  /** Each event of a subscription; throws RemoteAnswerError for the remote's errors, anything else when the socket drops. */
  stream<T>(query: string, variables: Record<string, unknown>): AsyncIterableIterator<T> {
    return mapIterator(this.subscriptions().iterate({ query, variables }), (result) => {
      const error = result.errors?.[0] as { message: string; extensions?: { code?: string } } | undefined;
      if (error) throw new RemoteAnswerError(error.message, error.extensions?.code ?? 'UNAVAILABLE');
      return result.data as T;
    });
  }

  /** The round trip of the cheapest request, in ms; rejects when the kernel does not answer. */
  async ping(): Promise<number> {
    const started = performance.now();
    const { status } = await this.send('GET', '/healthz', undefined, true);
    if (status !== 200) throw new Error(`healthz answered ${status}`);
    return performance.now() - started;
  }

  /** The graphql-ws socket to the remote kernel, opened on first use. */
  subscriptions(): WsClient {
    const agent = this.agent;
    this.socket ??= createClient({
      url: `ws://127.0.0.1:${this.remotePort}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { agent });
        }
      },
      connectionParams: { token: this.token, viaHub: true },
      lazy: true,
      retryAttempts: 0,
    });
    return this.socket;
  }

  close(): void {
    // dispose rethrows a connection that already failed: the link is going away either way
    Promise.resolve(this.socket?.dispose()).catch(() => undefined);
    this.agent.destroy();
  }

  /**
   * One request, after at most MAX_IN_FLIGHT - 1 others. With `resend`, it is sent again once when
   * a kept-alive channel turns out closed before any answer: the remote kernel ends idle
   * connections, and one may end just as it is reused.
   */
  private async send(method: string, path: string, body: string | undefined, resend: boolean): Promise<{ status: number; body: string }> {
    const release = await this.turn();
    try {
      return await this.sendOnce(method, path, body);
    } catch (err) {
      if (!resend || !(err instanceof StaleConnectionError)) throw err;
      return await this.sendOnce(method, path, body);
    } finally {
      release();
    }
  }

  /** Waits for a place among the requests in flight; the release hands it to the next in line. */
  private async turn(): Promise<() => void> {
    if (this.inFlight < MAX_IN_FLIGHT) this.inFlight++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.inFlight--;
    };
  }

  private sendOnce(method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.remotePort,
          method,
          path,
          agent: this.agent,
          headers: { [TOKEN_HEADER]: this.token, [VIA_HUB_HEADER]: '1', 'content-type': 'application/json', accept: 'application/json' },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            text += chunk;
            // a remote is another machine: its answer is bounded like any input
            if (text.length > MAX_ANSWER) req.destroy(new Error(`the remote kernel's answer passed ${MAX_ANSWER / 2 ** 20} MiB; refused`));
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
          res.on('error', reject);
        },
      );
      // a timer, not the socket's idle timeout: a channel has none
      const timer = setTimeout(() => req.destroy(new Error(`the remote kernel did not answer within ${ANSWER_TIMEOUT_MS / 1000} s`)), ANSWER_TIMEOUT_MS);
      req.once('close', () => clearTimeout(timer));
      req.on('error', (err: NodeJS.ErrnoException) => reject(req.reusedSocket && err.code === 'ECONNRESET' ? new StaleConnectionError(err.message) : err));
      req.end(body);
    });
  }
}

class StaleConnectionError extends Error {}
