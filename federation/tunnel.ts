import { Agent, type ClientRequestArgs } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Client } from 'ssh2';

// The remote kernel's loopback port, reached over the host's one SSH connection (what `ssh -L`
// does, minus the local port): an HTTP agent whose every connection is one ssh2 channel to that
// port. Keep-alive keeps the channel count low (RemoteClient sends at most eight requests at
// once); the graphql-ws socket rides one channel too.
// Going straight into the channel, rather than through a listening local port, spares every
// request two loopback hops (measured: docs/performance.md, Federation).

/** An idle channel's longest life; the remote's Keep-Alive hint (5 s, less a second) is shorter. */
const IDLE_CHANNEL_MS = 30_000;

export class TunnelAgent extends Agent {
  constructor(
    private readonly ssh: Client,
    private readonly remotePort: number,
  ) {
    // Node applies the Keep-Alive hint only under a timeout of the agent's own
    super({ keepAlive: true, timeout: IDLE_CHANNEL_MS });
  }

  // Node's agent takes the connection from the callback when this returns nothing.
  override createConnection(_options: ClientRequestArgs, done: (err: Error | null, socket?: Duplex) => void): Duplex {
    try {
      this.ssh.forwardOut('127.0.0.1', 0, '127.0.0.1', this.remotePort, (err, channel) => (err ? done(err) : done(null, asSocket(channel))));
    } catch (err) {
      // ssh2 throws at once when the connection is already gone: that is the request's error,
      // never the process's (the agent may be asking from a closing channel's handler)
      process.nextTick(done, err as Error);
    }
    return undefined as unknown as Duplex;
  }
}

type ChannelSocket = Duplex & Record<'setKeepAlive' | 'setNoDelay' | 'ref' | 'unref', () => Duplex> & { setTimeout(ms: number): Duplex };

/**
 * The socket methods HTTP calls that a channel lacks. Nagle is the SSH connection's, keep-alive
 * probes are SSH's keepalive, and a request's deadline is its own (a timer in RemoteClient).
 * setTimeout matters: the agent gives an idle channel the time the remote's Keep-Alive header
 * allows, less a second, and closes it on 'timeout', before the remote closes it under a request.
 */
function asSocket(channel: Duplex): Duplex {
  const socket = channel as ChannelSocket;
  let idle: NodeJS.Timeout | undefined;
  socket.setTimeout = (ms: number) => {
    clearTimeout(idle);
    if (ms > 0) idle = setTimeout(() => socket.emit('timeout'), ms).unref();
    return socket;
  };
  socket.once('close', () => clearTimeout(idle));
  for (const method of ['setKeepAlive', 'setNoDelay', 'ref', 'unref'] as const) socket[method] = () => socket;
  return socket;
}
