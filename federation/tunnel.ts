import { createServer, type Server, type Socket } from 'node:net';
import type { Client } from 'ssh2';

// A local port forwarded to the remote kernel's loopback port over the host's one SSH
// connection (what `ssh -L` does), with ssh2's own forwarding. Each local connection is one
// channel; HTTP keep-alive keeps the count low.

export interface Tunnel {
  /** the local port on 127.0.0.1 */
  port: number;
  close(): void;
}

export async function openTunnel(client: Client, remotePort: number): Promise<Tunnel> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    socket.setNoDelay(true);
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    client.forwardOut('127.0.0.1', socket.localPort ?? 0, '127.0.0.1', remotePort, (err, channel) => {
      if (err) return socket.destroy();
      socket.pipe(channel).pipe(socket);
      channel.once('close', () => socket.destroy());
      socket.once('close', () => channel.close());
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close() {
      server.close();
      for (const s of sockets) s.destroy();
    },
  };
}
