import { Agent, type ClientRequestArgs } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Client } from 'ssh2';

// The remote kernel's loopback port, reached over the host's one SSH connection (what `ssh -L`
// does, minus the local port): an HTTP agent whose every connection is one ssh2 channel to that
// port. Keep-alive keeps the channel count low; the graphql-ws socket rides one channel too.
// Going straight into the channel, rather than through a listening local port, spares every
// request two loopback hops (measured: docs/performance.md, Federation).

const MAX_CHANNELS = 8;

export class TunnelAgent extends Agent {
  constructor(
    private readonly ssh: Client,
    private readonly remotePort: number,
  ) {
    super({ keepAlive: true, maxSockets: MAX_CHANNELS });
  }

  // Node's agent takes the connection from the callback when this returns nothing.
  override createConnection(_options: ClientRequestArgs, done: (err: Error | null, socket?: Duplex) => void): Duplex {
    this.ssh.forwardOut('127.0.0.1', 0, '127.0.0.1', this.remotePort, (err, channel) => (err ? done(err) : done(null, asSocket(channel))));
    return undefined as unknown as Duplex;
  }
}

/**
 * The socket methods HTTP calls that a channel lacks. Timeouts are the request's own (a timer in
 * RemoteClient), Nagle is the SSH connection's, and keep-alive probes are SSH's keepalive.
 */
function asSocket(channel: Duplex): Duplex {
  const socket = channel as Duplex & Record<'setKeepAlive' | 'setNoDelay' | 'setTimeout' | 'ref' | 'unref', () => Duplex>;
  for (const method of ['setKeepAlive', 'setNoDelay', 'setTimeout', 'ref', 'unref'] as const) socket[method] = () => socket;
  return socket;
}
