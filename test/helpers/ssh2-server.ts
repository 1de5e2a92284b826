import { connect, createServer, type Server as NetServer, type Socket } from 'node:net';
import { type AuthContext, type Connection, type ParsedKey, Server, type ServerChannel, type TcpipRequestInfo, utils } from 'ssh2';

// An SSH server built on ssh2, for the misbehaviour a real sshd will not produce on demand:
// canned exec answers, and a link that goes silent without closing (blackhole), then comes back.

export interface TestSsh2Server {
  port: number;
  /** its own host key: the public line and the raw blob ssh2's hostVerifier receives */
  hostKey: { line: string; blob: Buffer };
  /** answers every exec request; replace it to change the answers */
  exec: (command: string) => { stdout: string; code: number };
  /** from now on, reads nothing and writes nothing on any connection, without closing them */
  blackhole(): void;
  /** ends the blackhole: connections it silenced move again, new ones are served */
  restore(): void;
  close(): Promise<void>;
}

/**
 * An ed25519 key pair from ssh2's own generator, which about one time in 256 writes a key it
 * cannot read back (it strips a public key's leading zero byte: mscdex/ssh2#1513): generated
 * again until both halves parse.
 */
export function ed25519KeyPair(comment?: string): { private: string; public: string } {
  for (;;) {
    const pair = utils.generateKeyPairSync('ed25519', comment ? { comment } : undefined);
    if (!(utils.parseKey(pair.public) instanceof Error) && !(utils.parseKey(pair.private) instanceof Error)) return pair;
  }
}

/** Starts an ssh2 server on a free loopback port that lets in the holder of `authorizedKey`. */
export async function startSsh2Server(options: { authorizedKey: string }): Promise<TestSsh2Server> {
  const allowed = parsePublicKey(options.authorizedKey);
  const { private: hostPrivate, public: hostPublic } = ed25519KeyPair('loom-test-ssh2-host');
  // every socket the server holds, client links and forwarding targets alike, to pause or destroy them
  const sockets = new Set<Socket>();
  let blackholed = false;
  const held = new Set<Socket>();

  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    // ssh2 resumes a socket once its crypto is ready: keep a blackholed one paused regardless
    socket.on('resume', () => blackholed && socket.pause());
  };
  const ssh = new Server({ hostKeys: [hostPrivate] }, (client) => serveClient(client, allowed, instance, track));
  ssh.on('error', () => {}); // a client dropping mid-handshake is not a test failure
  const listener = createServer((socket) => {
    socket.setNoDelay(true); // ssh2 leaves Nagle on: every forwarded request would stall ~40 ms
    track(socket);
    // a connection made during the blackhole hears nothing; it is dropped when the blackhole ends
    if (blackholed) {
      socket.pause();
      held.add(socket);
    } else ssh.injectSocket(socket);
  });
  const port = await listen(listener);

  const instance: TestSsh2Server = {
    port,
    hostKey: { line: hostPublic, blob: parsePublicKey(hostPublic).getPublicSSH() },
    exec: () => ({ stdout: '', code: 127 }),
    blackhole() {
      blackholed = true;
      for (const socket of sockets) socket.pause();
    },
    restore() {
      blackholed = false;
      for (const socket of held) socket.destroy();
      held.clear();
      for (const socket of sockets) socket.resume();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => listener.close(r));
    },
  };
  return instance;
}

function serveClient(client: Connection, allowed: ParsedKey, server: TestSsh2Server, track: (socket: Socket) => void): void {
  client.on('error', () => {}); // resets when a test or the server drops the link are expected
  client.on('authentication', (ctx) => authenticate(ctx, allowed));
  client.on('session', (acceptSession) => {
    acceptSession().on('exec', (accept, _reject, info) => {
      const { stdout, code } = server.exec(info.command);
      const stream = accept();
      stream.write(stdout);
      stream.exit(code);
      stream.end();
    });
  });
  client.on('tcpip', (accept, reject, info) => forward(accept, reject, info, track));
}

function authenticate(ctx: AuthContext, allowed: ParsedKey): void {
  if (ctx.method !== 'publickey') return ctx.reject(['publickey']);
  const sameKey = ctx.key.algo === allowed.type && ctx.key.data.equals(allowed.getPublicSSH());
  if (!sameKey) return ctx.reject(['publickey']);
  // without a signature the client only asks whether the key would do
  if (!ctx.signature || !ctx.blob) return ctx.accept();
  if (allowed.verify(ctx.blob, ctx.signature, ctx.hashAlgo) === true) ctx.accept();
  else ctx.reject(['publickey']);
}

/** Serves a direct-tcpip channel (ssh2 forwardOut) by connecting to the requested loopback port. */
function forward(accept: () => ServerChannel, reject: () => void, info: TcpipRequestInfo, track: (socket: Socket) => void): void {
  if (info.destIP !== '127.0.0.1' && info.destIP !== 'localhost') return reject();
  const target = connect(info.destPort, '127.0.0.1');
  track(target);
  target.once('error', reject);
  target.once('connect', () => {
    target.setNoDelay(true);
    target.off('error', reject);
    const channel = accept();
    channel.pipe(target).pipe(channel);
    target.on('error', () => channel.destroy());
    channel.on('error', () => target.destroy());
  });
}

function parsePublicKey(line: string): ParsedKey {
  const key = utils.parseKey(line);
  if (key instanceof Error) throw new Error(`not a public key: ${line}: ${key.message}`);
  return Array.isArray(key) ? key[0] : key;
}

function listen(server: NetServer): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port));
  });
}
