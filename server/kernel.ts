import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { LinkedHosts, type LinkedHostsOptions } from '../federation/linked-hosts';
import { Actions, ANSWER_WAIT_MS } from '../spoke/act/actions';
import { Driving } from '../spoke/drive/driving';
import type { IndexingProgress } from '../spoke/model/types';
import { LocalSource } from '../spoke/source';
import { ViewsStore } from '../spoke/views/views-store';
import { httpHandler } from './http';
import { hubFastPath } from './hub-fast-path';
import { DEFAULT_ARCHIVE_CAP_BYTES, DEFAULT_HTTP_TIMEOUTS, type HttpTimeouts } from './kernel-defaults';
import { AccessPolicy, isLoopback } from './security/access';
import { DEFAULT_LIMITS, type QueryLimits } from './security/limits';
import { FailureThrottle, type ThrottleOptions } from './security/throttle';
import { ensureToken } from './security/token';
import { claimStateDir } from './state-dir';
import { attachWebSocket } from './websocket';
import { createLoomYoga } from './yoga';

// One running kernel: this machine's sessions, served over HTTP and WebSocket, to its owner.

export interface KernelOptions {
  projectsRoot: string;
  stateDir: string;
  /** 0 picks a free port */
  port: number;
  /** the address to listen on; loopback unless told otherwise */
  bindHost?: string;
  /** more Host names to answer to (besides 127.0.0.1, localhost, [::1]) */
  allowHosts?: string[];
  limits?: QueryLimits;
  hostName?: string;
  /** sessions kept awake (graph in memory) beyond those being streamed; AWAKE_LIMIT (64) by default */
  awakeLimit?: number;
  log?: (message: string) => void;
  onProgress?: (progress: IndexingProgress) => void;
  /** how linked hosts are reached (tests shorten the timings and give a temp HOME) */
  federation?: Pick<LinkedHostsOptions, 'home' | 'keepaliveMs' | 'backoff'>;
  /** the clock the sessions are read against (what is at work now); default Date.now; tests inject one */
  now?: () => number;
  /** how long Loom's PermissionRequest hook is held for an answer (and an idle session's Stop hook while away); ANSWER_WAIT_MS (570 s) unless given */
  answerWaitMs?: number;
  /** the `claude` the sessions Loom drives run; the first on PATH unless given */
  claudePath?: string;
  /** when idle or slow sockets are closed; DEFAULT_HTTP_TIMEOUTS unless given */
  httpTimeouts?: Partial<HttpTimeouts>;
  /** how many wrong tokens a peer may try; DEFAULT_THROTTLE unless given */
  throttle?: Partial<ThrottleOptions>;
  /** Loom's copy of every transcript (`<state>/archive`): on unless false; capped at DEFAULT_ARCHIVE_CAP_BYTES unless given (null: no cap) */
  archive?: false | { capBytes: number | null };
  /** the search index (`<state>/search.db`): on unless false */
  search?: boolean;
  /** worker threads that index whole projects of the first read (0: the kernel's thread alone); defaultIndexWorkers() unless given */
  indexWorkers?: number;
}

export interface Kernel {
  url: string;
  port: number;
  source: LocalSource;
  actions: Actions;
  driving: Driving;
  hosts: LinkedHosts;
  access: AccessPolicy;
  /** resolves when the first index is done */
  indexed: Promise<void>;
  close(): Promise<void>;
}

export async function startKernel(options: KernelOptions): Promise<Kernel> {
  const log = options.log ?? (() => {});
  const bindHost = options.bindHost ?? '127.0.0.1';
  // Refuse before anything listens: a token others can read protects nothing.
  ensureToken(options.stateDir);
  if (!isLoopback(bindHost)) {
    log(`warning: listening on ${bindHost}, not loopback: anyone who can reach it can try tokens. Prefer an SSH tunnel (docs/security.md).`);
  }
  // the source shows the requests the actions hold; the actions name sessions as the source does
  let actions: Actions | null = null;
  let driving: Driving | null = null;
  const source = new LocalSource({
    projectsRoot: options.projectsRoot,
    host: options.hostName,
    cacheFile: join(options.stateDir, 'index-cache.json'),
    liveDir: join(options.stateDir, 'states'),
    clearsFile: join(options.stateDir, 'cleared-goals.jsonl'),
    searchFile: options.search === false ? undefined : join(options.stateDir, 'search.db'),
    archiveDir: options.archive === false ? undefined : join(options.stateDir, 'archive'),
    archiveCapBytes: options.archive === false || options.archive === undefined ? DEFAULT_ARCHIVE_CAP_BYTES : options.archive.capBytes,
    awakeLimit: options.awakeLimit,
    indexWorkers: options.indexWorkers,
    now: options.now,
    log,
    latestRequest: (ids) => actions?.requests.latestOf(ids) ?? null,
    hookObserved: (line) => actions?.observe(line.event, line.input),
    onChange: (keys) => {
      for (const key of keys) driving?.transcriptChanged(key);
    },
  });
  actions = new Actions({
    stateDir: options.stateDir,
    host: source.hosts()[0].name,
    // beside the projects folder: ~/.claude/projects and ~/.claude/plans
    plansDir: join(dirname(options.projectsRoot), 'plans'),
    now: options.now ?? Date.now,
    answerWaitMs: options.answerWaitMs ?? ANSWER_WAIT_MS,
    log,
    sessionIdOf: (id) => source.sessionIdOfClaude(id),
    changed: (id) => source.claudeSessionChanged(id),
  });
  driving = new Driving(source, actions, {
    stateDir: options.stateDir,
    claudePath: options.claudePath ?? null,
    now: options.now ?? Date.now,
    log,
    stopWaitMs: options.answerWaitMs ?? ANSWER_WAIT_MS,
    // where Claude Code keeps the folders a person trusted: beside the projects folder with CLAUDE_CONFIG_DIR, else in HOME
    trustFiles: [join(dirname(options.projectsRoot), '.claude.json'), join(homedir(), '.claude.json')],
  });
  // hosts.json is read before anything listens: a bad one stops the start with the field and why
  const hosts = new LinkedHosts({ stateDir: options.stateDir, localName: source.hosts()[0].name, log, ...options.federation });
  const limits = options.limits ?? DEFAULT_LIMITS;
  const views = new ViewsStore(options.stateDir, { log, renamed: (key) => source.touched(key) });
  const yoga = createLoomYoga(source, actions, driving, views, hosts, limits, log);
  const timeouts = { ...DEFAULT_HTTP_TIMEOUTS, ...options.httpTimeouts };
  const server = createServer({
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    // node looks for sockets past those timeouts only this often (30 s by default)
    connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, bindHost, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${bindHost.includes(':') ? `[${bindHost}]` : bindHost}:${port}/`;
  let release: () => void;
  try {
    release = claimStateDir(options.stateDir, { pid: process.pid, port, host: bindHost, url, startedAt: new Date().toISOString() });
  } catch (err) {
    hosts.close();
    await new Promise((resolve) => server.close(resolve));
    throw err;
  }
  const access = new AccessPolicy({ stateDir: options.stateDir, port, bindHost, extraHosts: options.allowHosts });
  const throttle = new FailureThrottle(options.throttle, log);
  server.on('request', httpHandler({ yoga, actions, driving, hubFastPath: hubFastPath(yoga, hosts), access, throttle, log }));
  const wss = attachWebSocket(server, { yoga, access, throttle, log, operations: { socket: limits.socketOperations, hubSocket: limits.hubSocketOperations } });

  // Serve while indexing: the API reports progress from the first moment.
  const indexed = source.start(options.onProgress);
  indexed.catch((err) => log(`indexing failed: ${(err as Error).message}`));

  return {
    url,
    port,
    source,
    actions,
    driving,
    access,
    indexed,
    hosts,
    async close() {
      await driving.stop();
      actions.stop();
      hosts.close();
      await source.stop();
      for (const client of wss.clients) client.terminate();
      await new Promise((resolve) => wss.close(resolve));
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      access.close();
      release();
    },
  };
}
