import { homedir } from 'node:os';
import { join } from 'node:path';
import { RemoteAnswerError, type RemoteDirectory, type RemoteExecutor } from '../schema/remote/delegate';
import { claimedBy, hostRenamer } from '../schema/remote/id-rewrite';
import { mapIterator } from '../schema/remote/map-iterator';
import { Pulse } from '../spoke/model/pulse';
import { BadInputError, type HostDirectory, type HostLinkRequest, NotFoundError, UnavailableError } from '../spoke/model/source';
import type { HostInfo, TrustTier } from '../spoke/model/types';
import { HostConnection } from './host-link';
import { HostsConfigError, type LinkedHost, parseLinkedHost, readHostsConfig, writeHostsConfig } from './hosts-config';
import { AnswerTooLargeError } from './remote-client';
import type { RemoteKernel } from './remote-kernel';
import { defaultHostName, resolveSshTargetAt, type SshTarget, SshTargetError } from './ssh-target';

// Every host this kernel links, from `<state>/hosts.json`: one connection each, their status for
// the API, and the changes (link, unlink, trust, a host going up or down) as one signal.

export interface LinkedHostsOptions {
  stateDir: string;
  /** the local host's name: no linked host may take it */
  localName: string;
  log(message: string): void;
  /** where ~/.ssh lives (tests give a temp HOME) */
  home?: string;
  /** the ping period that notices a lost link; LINK_TIMINGS.keepaliveMs by default */
  keepaliveMs?: number;
  /** how a lost link is retried; LINK_TIMINGS.backoff by default */
  backoff?: { baseMs: number; capMs: number };
}

/** A ping every 5 s; a lost link retried after 1 s, doubling up to 30 s (with jitter). */
export const LINK_TIMINGS = { keepaliveMs: 5_000, backoff: { baseMs: 1_000, capMs: 30_000 } };

export class LinkedHosts implements HostDirectory, RemoteDirectory {
  private readonly connections = new Map<string, HostConnection>();
  private readonly listeners = new Set<() => void>();
  private readonly home: string;

  constructor(private readonly options: LinkedHostsOptions) {
    this.home = options.home ?? homedir();
    for (const host of readHostsConfig(options.stateDir)) this.connect(host, {});
  }

  list(): HostInfo[] {
    return [...this.connections.values()].map((c) => ({ name: c.host.name, local: false, link: c.info() }));
  }

  linked(): boolean {
    return this.connections.size > 0;
  }

  mayLink(): boolean {
    return true;
  }

  get(alias: string): RemoteExecutor | undefined {
    const connection = this.connections.get(alias);
    if (!connection) return undefined;
    const executor = executorOf(connection);
    if (!executor) {
      const { state, message, since } = connection.info();
      throw new UnavailableError(`${alias} is ${state.toLowerCase()} since ${new Date(since).toISOString()}${message ? `: ${message}` : ''}`);
    }
    return executor;
  }

  aliases(): string[] {
    return [...this.connections.keys()];
  }

  up(): RemoteExecutor[] {
    return [...this.connections.values()].flatMap((c) => executorOf(c) ?? []);
  }

  /**
   * Links a host (or links it again with new settings) and waits for the first attempt's outcome.
   * The command run there and its state dir come from hosts.json only (`loom link --command`
   * writes them there), never from a request.
   */
  async link(request: HostLinkRequest): Promise<HostInfo> {
    const target = this.resolve(request.target);
    const existing = [...this.connections.values()].find((c) => c.host.target === request.target);
    const configured = this.configured(request.target);
    try {
      const host = this.checked({
        name: request.name ?? existing?.host.name ?? configured?.name ?? defaultHostName(target),
        target: request.target,
        trust: request.trust ?? existing?.host.trust ?? configured?.trust,
        command: configured?.command,
        stateDir: configured?.stateDir,
      });
      if (existing && existing.host.name !== host.name) this.drop(existing.host.name);
      this.drop(host.name);
      const connection = this.connect(host, request);
      this.save();
      await connection.settled();
      return { name: host.name, local: false, link: connection.info() };
    } catch (err) {
      // an entry `loom link` wrote for a link refused here does not stay to be linked at the next start
      if (configured && !this.connections.has(configured.name)) this.save();
      throw err;
    }
  }

  unlink(name: string): boolean {
    if (!this.connections.has(name)) return false;
    this.drop(name);
    this.save();
    this.changed();
    return true;
  }

  setTrust(name: string, trust: TrustTier): HostInfo {
    const connection = this.connections.get(name);
    if (!connection) throw new NotFoundError(`no linked host "${name}"; see loom hosts`);
    connection.setTrust(trust);
    this.save();
    return { name, local: false, link: connection.info() };
  }

  /** Wakes on every change of any host; `close()` the iterator to stop. */
  changes(): Pulse {
    const pulse = new Pulse(() => this.listeners.delete(listener));
    const listener = () => pulse.notify();
    this.listeners.add(listener);
    return pulse;
  }

  close(): void {
    for (const name of [...this.connections.keys()]) this.drop(name);
  }

  private connect(host: LinkedHost, once: Pick<HostLinkRequest, 'acceptNew' | 'startKernel'>): HostConnection {
    const connection = new HostConnection({
      host,
      resolveTarget: () => this.resolve(host.target),
      knownHosts: [join(this.home, '.ssh', 'known_hosts'), '/etc/ssh/ssh_known_hosts'],
      agent: process.env.SSH_AUTH_SOCK,
      acceptNew: once.acceptNew ?? false,
      startKernel: once.startKernel ?? false,
      hubName: this.options.localName,
      keepaliveMs: this.options.keepaliveMs ?? LINK_TIMINGS.keepaliveMs,
      backoff: this.options.backoff ?? LINK_TIMINGS.backoff,
      log: this.options.log,
      onChange: () => this.changed(),
    });
    this.connections.set(host.name, connection);
    this.changed();
    return connection;
  }

  private drop(name: string): void {
    this.connections.get(name)?.stop();
    this.connections.delete(name);
  }

  private resolve(target: string): SshTarget {
    return refusedAsBadInput(() => resolveSshTargetAt(target, this.home));
  }

  /** The target's entry in hosts.json as it is on disk now. */
  private configured(target: string): LinkedHost | undefined {
    return refusedAsBadInput(() => readHostsConfig(this.options.stateDir).find((h) => h.target === target));
  }

  private checked(input: Parameters<typeof parseLinkedHost>[0]): LinkedHost {
    const host = refusedAsBadInput(() => parseLinkedHost(input));
    if (host.name === this.options.localName) throw new BadInputError(`"${host.name}" is this machine's own name; give the host another with --name`);
    return host;
  }

  private save(): void {
    writeHostsConfig(
      this.options.stateDir,
      [...this.connections.values()].map((c) => c.host),
    );
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/** Runs a check whose refusal the caller can fix, so its reason reaches them (BAD_USER_INPUT). */
function refusedAsBadInput<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof HostsConfigError || err instanceof SshTargetError) throw new BadInputError(err.message);
    throw err;
  }
}

/** Each connected kernel's executor, made once: every request through the hub asks for it. */
const executors = new WeakMap<RemoteKernel, RemoteExecutor>();

/** The schema's view of a connected host: its kernel's API, by the hub's alias. */
function executorOf(connection: HostConnection): RemoteExecutor | null {
  const kernel = connection.kernel();
  if (!kernel) return null;
  const made = executors.get(kernel);
  if (made?.alias === connection.host.name) return made;
  const executor = executorFor(kernel, connection.host.name);
  executors.set(kernel, executor);
  return executor;
}

function executorFor(kernel: RemoteKernel, alias: string): RemoteExecutor {
  // the remote's messages name its objects by its own host name: say the hub's alias instead
  const inAlias = (message: string) => message.replaceAll(`${kernel.hostName}:`, `${alias}:`);
  const renamed = (err: unknown) => (err instanceof RemoteAnswerError ? new RemoteAnswerError(inAlias(err.message), err.code) : err);
  // a request that got no answer at all (the link dropped, the kernel stopped) is UNAVAILABLE
  const failed = (err: unknown) => {
    if (err instanceof RemoteAnswerError) throw renamed(err);
    throw new UnavailableError(err instanceof AnswerTooLargeError ? `${alias} ${err.message}` : `${alias} did not answer: ${(err as Error).message}`);
  };
  const query = (document: string, variables: Record<string, unknown>, operationName?: string) =>
    kernel.client.query<Record<string, unknown>>(document, variables, operationName).catch(failed);
  return {
    alias,
    remoteName: kernel.hostName,
    toRemote: hostRenamer(alias, kernel.hostName),
    fromRemote: claimedBy(kernel.hostName, alias),
    query,
    execute: async (document, variables, operationName) => {
      const { data, errors } = await kernel.client.execute(document, variables, operationName).catch(failed);
      return { data, errors: errors.map((e) => ({ ...e, message: inAlias(e.message) })) };
    },
    queryLists: (document, variables) => kernel.lists.read(`${document}\n${JSON.stringify(variables)}`, () => query(document, variables)),
    subscribe: (document, variables) => mapIterator(kernel.client.stream<Record<string, unknown>>(document, variables), (data) => data, renamed),
  };
}
