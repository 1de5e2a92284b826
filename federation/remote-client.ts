import type { Agent } from 'node:http';
import { createClient, type ExecutionResult, type FormattedExecutionResult, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { RemoteAnswerError, type RemoteError, type RemoteResult } from '../schema/remote/delegate';
import { FairQueue } from './fair-queue';

// The hub's client of one remote kernel: one graphql-ws socket through the tunnel's agent
// (federation/tunnel.ts) carries every query, mutation and subscription. A query over that socket
// skips the HTTP framing and yoga's Fetch-API pipeline on both ends, which cost a forwarded query
// more than the rest of the hop together (measured: docs/performance.md, Federation).
// The socket names 127.0.0.1 and the port the kernel listens on there, which is what its Host
// check expects.

/** An answer past this closes the socket: a remote is another machine, bounded like any input. */
const MAX_ANSWER = 64 * 2 ** 20;
/** What a kernel takes in one WebSocket message (server/websocket.ts); more would close the socket. */
const MAX_MESSAGE = 2 ** 20;
/** What one operation may take from being asked, its wait for a place among those in flight included. */
const ANSWER_TIMEOUT_MS = 15_000;
/**
 * Operations on their way at once, so the hub's queries never crowd out its streams there (a
 * kernel takes up to 16 at once on a hub's socket: server/websocket.ts); the hub's clients take
 * turns for them (fair-queue.ts).
 */
const MAX_IN_FLIGHT = 8;
/** Events of one subscription the hub holds before its reader takes them: change notices and atoms, small. */
const MAX_WAITING_EVENTS = 1000;
/** How long the socket stays open with nothing on it (a linked remote normally has a stream open). */
const IDLE_SOCKET_MS = 30_000;

/** The remote sent an answer past MAX_ANSWER: it answered, too much, and the socket went with it. */
export class AnswerTooLargeError extends Error {
  constructor() {
    super(
      `sent an answer over ${MAX_ANSWER / 2 ** 20} MiB, more than the hub takes from a host, so the hub closed the connection: ask for less (a smaller "first" or "limit")`,
    );
  }
}

export class RemoteClient {
  private wsClient: WsClient | null = null;
  private readonly places = new FairQueue(MAX_IN_FLIGHT);

  constructor(
    private readonly agent: Agent,
    private readonly remotePort: number,
    private readonly token: string,
    private readonly answerTimeoutMs = ANSWER_TIMEOUT_MS,
    /** this hub's own name, which the remote kernel writes in its audit log for what the hub does */
    private readonly hubName: string | null = null,
  ) {}

  /** The data of one operation; rejects with the remote's first error. */
  async query<T>(query: string, variables: Record<string, unknown> = {}, operationName?: string): Promise<T> {
    const { data, errors } = await this.execute(query, variables, operationName);
    return dataOf(data, errors) as T;
  }

  /** One operation's whole answer, data and errors alike; rejects only when there is none. */
  async execute(query: string, variables: Record<string, unknown> = {}, operationName?: string): Promise<RemoteResult> {
    // one deadline from now: behind operations that hang, a wait for a place would be endless
    const deadline = performance.now() + this.answerTimeoutMs;
    const late = () => new Error(`the remote kernel did not answer within ${this.answerTimeoutMs / 1000} s: the operations before this one were still running`);
    const release = await this.places.acquire(deadline, late);
    try {
      return await this.operation(query, variables, operationName, deadline);
    } finally {
      release();
    }
  }

  /**
   * Each event of a subscription; throws RemoteAnswerError for the remote's errors, anything else
   * when the socket drops or the remote sends more than MAX_WAITING_EVENTS faster than they are
   * read (then the subscription is ended there: a host could otherwise fill the hub's memory
   * behind one slow reader).
   */
  stream<T>(query: string, variables: Record<string, unknown>): AsyncIterableIterator<T> {
    const events: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
    let end: { error: Error } | 'done' | null = null;
    let wake = () => {};
    const finish = (how: { error: Error } | 'done') => {
      end ??= how;
      wake();
    };
    const cancel = this.connection().subscribe<Record<string, unknown>>(
      { query, variables },
      {
        next: (result) => {
          if (end) return; // already ended here; the remote may not have heard yet
          if (events.length < MAX_WAITING_EVENTS) events.push(result);
          else {
            cancel();
            finish({ error: new Error(`the remote kernel sent more than ${MAX_WAITING_EVENTS} events faster than they were read`) });
          }
          wake();
        },
        // refused before it began (the remote's validation and limits), or the socket went away
        error: (err) => finish({ error: Array.isArray(err) ? answerError(err as RemoteError[]) : socketError(err) }),
        complete: () => finish('done'),
      },
    );
    return {
      async next() {
        while (events.length === 0 && !end) await new Promise<void>((resolve) => (wake = resolve));
        const result = events.shift();
        if (!result) {
          if (end === 'done') return { done: true, value: undefined };
          throw end!.error;
        }
        if (result.errors?.length) throw answerError(result.errors as RemoteError[]);
        return { done: false, value: result.data as T };
      },
      async return() {
        cancel();
        finish('done');
        return { done: true, value: undefined };
      },
      [Symbol.asyncIterator]() {
        return this;
      },
    };
  }

  /**
   * The round trip of the cheapest operation, in ms, the way queries go; rejects when the kernel
   * does not answer. It skips the queue: slow queries there are no sign of a kernel gone.
   */
  async ping(): Promise<number> {
    const started = performance.now();
    const { data, errors } = await this.operation('{ __typename }', {}, undefined, started + this.answerTimeoutMs);
    dataOf(data, errors);
    return performance.now() - started;
  }

  /** The graphql-ws socket to the remote kernel, opened on first use and again after a drop. */
  private connection(): WsClient {
    const agent = this.agent;
    this.wsClient ??= createClient({
      url: `ws://127.0.0.1:${this.remotePort}/graphql`,
      webSocketImpl: class extends WebSocket {
        constructor(address: string, protocols?: string | string[]) {
          super(address, protocols, { agent, maxPayload: MAX_ANSWER });
        }
      },
      connectionParams: { token: this.token, viaHub: true, hubName: this.hubName },
      lazy: true,
      lazyCloseTimeout: IDLE_SOCKET_MS,
      retryAttempts: 0,
    });
    return this.wsClient;
  }

  close(): void {
    // dispose rethrows a connection that already failed: the link is going away either way
    Promise.resolve(this.wsClient?.dispose()).catch(() => undefined);
    this.agent.destroy();
  }

  /**
   * One query or mutation over the socket. Never sent twice: a mutation the remote may have done
   * before its socket closed must not be done again, and a query is cheap to ask again by hand.
   * (graphql-ws would send operations again after a close with code 1000 while others run; a
   * kernel never closes a socket that way.)
   */
  private operation(query: string, variables: Record<string, unknown>, operationName: string | undefined, deadline: number): Promise<RemoteResult> {
    // the kernel would close the whole socket, streams and all, over one message too large
    const size = Buffer.byteLength(JSON.stringify({ query, variables, operationName }));
    if (size > MAX_MESSAGE - 1024) {
      return Promise.reject(
        new RemoteAnswerError(`the operation is ${Math.ceil(size / 1024)} KiB; a host takes at most ${MAX_MESSAGE / 2 ** 20} MiB in one`, 'BAD_USER_INPUT'),
      );
    }
    return new Promise((resolve, reject) => {
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        outcome();
      };
      const timer = setTimeout(() => {
        cancel(); // tells the remote to stop
        reject(new Error(`the remote kernel did not answer within ${this.answerTimeoutMs / 1000} s`));
      }, deadline - performance.now());
      const cancel = this.connection().subscribe<Record<string, unknown>>(
        { query, variables, operationName },
        {
          // A query's one result is its answer. graphql-ws sends `complete` only once that result
          // has been written, a turn of the remote's event loop and one more SSH packet later:
          // nothing waits for it.
          next: (result: ExecutionResult<Record<string, unknown>>) =>
            settle(() => resolve({ data: result.data ?? null, errors: (result.errors ?? []) as unknown as RemoteError[] })),
          // refused before it ran (the remote's validation and limits) is an answer; anything else is none
          error: (err: unknown) => settle(() => (Array.isArray(err) ? resolve({ data: null, errors: err as RemoteError[] }) : reject(socketError(err)))),
          // without a result first, the socket went away under it (graphql-ws completes what it drops on dispose)
          complete: () => settle(() => reject(new Error('its connection closed before an answer'))),
        },
      );
    });
  }
}

function dataOf(data: Record<string, unknown> | null, errors: RemoteError[]): Record<string, unknown> | null {
  if (errors.length > 0) throw answerError(errors);
  return data;
}

/** The remote's first error, as the answer it is (its code kept). */
function answerError([error]: RemoteError[]): RemoteAnswerError {
  return new RemoteAnswerError(error.message, error.extensions?.code ?? 'UNAVAILABLE');
}

/** Why the socket failed, in words: a close event, ws's error event, or an Error. */
function socketError(err: unknown): Error {
  if (err instanceof Error) return err;
  const { code, reason, message, error } = err as { code?: number; reason?: string; message?: string; error?: { code?: string } };
  if (error?.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return new AnswerTooLargeError();
  if (message) return new Error(message);
  return new Error(`its connection closed${code ? ` (${code}${reason ? `: ${reason}` : ''})` : ''}`);
}
