import { Agent, type ClientRequestArgs } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Client } from 'ssh2';

// The remote kernel's loopback port, reached over the host's one SSH connection (what `ssh -L`
// does, minus the local port): an HTTP agent whose connections are ssh2 channels to that port.
// The graphql-ws socket that carries all of the hub's operations (federation/remote-client.ts)
// opens through it, as one channel.
// Going straight into the channel, rather than through a listening local port, spares every
// operation two loopback hops (measured: docs/performance.md, Federation).

export class TunnelAgent extends Agent {
  constructor(
    private readonly ssh: Client,
    private readonly remotePort: number,
  ) {
    super();
  }

  // Node's agent takes the connection from the callback when this returns nothing.
  override createConnection(_options: ClientRequestArgs, done: (err: Error | null, socket?: Duplex) => void): Duplex {
    try {
      this.ssh.forwardOut('127.0.0.1', 0, '127.0.0.1', this.remotePort, (err, channel) => (err ? done(err) : done(null, asSocket(channel))));
    } catch (err) {
      // ssh2 throws at once when the connection is already gone: that is the socket's error,
      // never the process's (it may be asked from a closing channel's handler)
      process.nextTick(done, err as Error);
    }
    return undefined as unknown as Duplex;
  }
}

type ChannelSocket = Duplex & Record<'setKeepAlive' | 'setNoDelay' | 'setTimeout' | 'ref' | 'unref', () => Duplex>;

/**
 * The socket methods HTTP and ws call that a channel lacks: Nagle is the SSH connection's (off),
 * keep-alive probes are SSH's keepalive, and an operation's deadline is its own (a timer in
 * RemoteClient).
 */
function asSocket(channel: Duplex): Duplex {
  const socket = channel as ChannelSocket;
  for (const method of ['setKeepAlive', 'setNoDelay', 'setTimeout', 'ref', 'unref'] as const) socket[method] = () => socket;
  return socket;
}
