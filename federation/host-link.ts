import type { Client } from 'ssh2';
import { RemoteAnswerError } from '../schema/remote/delegate';
import type { HostDownReason, HostLink as HostLinkStatus, HostState } from '../spoke/model/types';
import { backoffMs } from './backoff';
import type { LinkedHost } from './hosts-config';
import { LinkFailure } from './link-failure';
import { type RemoteKernel, reachKernel } from './remote-kernel';
import { connectSsh } from './ssh-connect';
import type { SshTarget } from './ssh-target';

// One linked host, kept connected: SSH, then its kernel, then a ping each keepalive period for
// the round trip. A lost link is retried with capped, jittered backoff; a failure only a person
// can fix (auth, host key, version) is reported once and waits for the config to change.

export interface HostLinkOptions {
  host: LinkedHost;
  /** ~/.ssh/config is read again at each attempt, so a fix there is picked up */
  resolveTarget(): SshTarget;
  knownHosts: string[];
  agent: string | undefined;
  /** accept an unknown host key on the first attempt only (loom link --accept-new) */
  acceptNew: boolean;
  /** start the remote kernel if none runs, on the first attempt only (loom link --start) */
  startKernel: boolean;
  keepaliveMs: number;
  backoff: { baseMs: number; capMs: number };
  /** this hub's name, which the host's audit log records its actions under */
  hubName: string;
  log(message: string): void;
  onChange(): void;
}

export class HostConnection {
  private status: HostLinkStatus;
  private remote: RemoteKernel | null = null;
  private ssh: Client | null = null;
  private stopped = false;
  private wake: (() => void) | null = null;
  private firstAttempt: Promise<void>;
  private settleFirst!: () => void;

  constructor(private readonly options: HostLinkOptions) {
    this.status = {
      target: options.host.target,
      trust: options.host.trust,
      state: 'CONNECTING',
      reason: null,
      message: null,
      since: Date.now(),
      lastSeen: null,
      rttMs: null,
    };
    this.firstAttempt = new Promise((resolve) => (this.settleFirst = resolve));
    void this.run();
  }

  get host(): LinkedHost {
    return this.options.host;
  }

  info(): HostLinkStatus {
    return { ...this.status, trust: this.options.host.trust };
  }

  /** The remote kernel while the host is UP. */
  kernel(): RemoteKernel | null {
    return this.status.state === 'UP' ? this.remote : null;
  }

  /** Resolves once the first attempt has an outcome (UP or DOWN). */
  settled(): Promise<void> {
    return this.firstAttempt;
  }

  setTrust(trust: LinkedHost['trust']): void {
    this.options.host = { ...this.options.host, trust };
    this.options.onChange();
  }

  stop(): void {
    this.stopped = true;
    this.wake?.();
    this.teardown();
  }

  private async run(): Promise<void> {
    let attempt = 0;
    let acceptNew = this.options.acceptNew;
    let startKernel = this.options.startKernel;
    // retries keep showing DOWN with its reason and since: only the first attempt is CONNECTING
    while (!this.stopped) {
      let failure: LinkFailure;
      try {
        this.ssh = await connectSsh({
          target: this.options.resolveTarget(),
          knownHosts: this.options.knownHosts,
          agent: this.options.agent,
          acceptNew,
          keepaliveMs: this.options.keepaliveMs,
        });
        acceptNew = false;
        const start = startKernel;
        startKernel = false;
        this.remote = await reachKernel(this.ssh, this.options.host, { start, hubName: this.options.hubName });
        this.status.rttMs = await this.remote.client.ping();
        this.status.lastSeen = Date.now();
        this.set('UP', null, null);
        attempt = 0;
        failure = await this.watch(this.ssh, this.remote);
      } catch (err) {
        failure = err instanceof LinkFailure ? err : new LinkFailure('UNREACHABLE', `${this.options.host.name}: ${(err as Error).message}`);
      }
      this.teardown();
      if (this.stopped) break;
      this.set('DOWN', failure.reason, failure.message);
      if (failure.needsPerson) break; // reported once; a new link or config starts a new connection
      await this.sleep(backoffMs(attempt++, this.options.backoff.baseMs, this.options.backoff.capMs));
    }
  }

  /** Resolves with why the link ended: the SSH connection closed, or the kernel stopped answering. */
  private watch(ssh: Client, remote: RemoteKernel): Promise<LinkFailure> {
    return new Promise((resolve) => {
      let misses = 0;
      const end = (failure: LinkFailure) => {
        clearInterval(timer);
        resolve(failure);
      };
      const timer = setInterval(() => {
        const seen = () => {
          misses = 0;
          this.status.lastSeen = Date.now();
        };
        remote.client
          .ping()
          .then((rtt) => {
            seen();
            this.status.rttMs = rtt;
          })
          .catch((err) => {
            // refusing the ping (a limit, say) is still an answer: the kernel is there
            if (err instanceof RemoteAnswerError) return seen();
            if (++misses >= 2)
              end(new LinkFailure('KERNEL_NOT_RUNNING', `the kernel on ${this.options.host.name} stopped answering; start it there with "loom up"`));
          });
      }, this.options.keepaliveMs);
      const lost = () => end(new LinkFailure('UNREACHABLE', `the SSH connection to ${this.options.host.name} was lost; reconnecting`));
      ssh.once('close', lost);
      // every error, not only the first: a second one with no listener would end the process
      ssh.on('error', lost);
      this.wake = () => end(new LinkFailure('UNREACHABLE', 'unlinked'));
    });
  }

  private set(state: HostState, reason: HostDownReason | null, message: string | null): void {
    const changed = state !== this.status.state || reason !== this.status.reason || message !== this.status.message;
    if (state !== this.status.state) this.status.since = Date.now();
    this.status = { ...this.status, state, reason, message };
    this.settleFirst();
    if (!changed) return;
    if (state === 'DOWN') this.options.log(`${this.options.host.name} is down: ${message}`);
    if (state === 'UP') this.options.log(`${this.options.host.name} is up (${this.remote?.hostName}, Loom ${this.remote?.version})`);
    this.options.onChange();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private teardown(): void {
    this.remote?.lists.close();
    this.remote?.client.close();
    this.remote = null;
    this.ssh?.end();
    this.ssh = null;
  }
}
