// Bad credentials from one peer are answered ever more slowly, and only so many are held at a
// time: past that, more are refused at once. The right token is checked first and never waits,
// so a flood of guesses from the same address (loopback is one address for every local tab and
// process) never locks out the owner.

export interface ThrottleOptions {
  /** failures answered at once before holding starts */
  free: number;
  stepMs: number;
  maxDelayMs: number;
  /** failed requests held at once per peer; more are refused without waiting */
  maxHeld: number;
  /** a peer's failures are forgotten after this long without one */
  forgetMs: number;
}

const DEFAULTS: ThrottleOptions = { free: 10, stepMs: 20, maxDelayMs: 500, maxHeld: 16, forgetMs: 60_000 };

interface Peer {
  failures: number;
  held: number;
  last: number;
}

export class FailureThrottle {
  private readonly peers = new Map<string, Peer>();
  private readonly options: ThrottleOptions;

  constructor(options: Partial<ThrottleOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /**
   * Records a failure and settles when the answer may go out: `held` true after a delay,
   * false at once when too many of this peer's failures are already being held.
   */
  async failed(peer: string): Promise<{ held: boolean; failures: number }> {
    const now = Date.now();
    let p = this.peers.get(peer);
    if (!p || now - p.last > this.options.forgetMs) {
      p = { failures: 0, held: 0, last: now };
      this.peers.set(peer, p);
    }
    p.failures++;
    p.last = now;
    const delay = Math.min(Math.max(0, p.failures - this.options.free) * this.options.stepMs, this.options.maxDelayMs);
    if (delay === 0) return { held: false, failures: p.failures };
    if (p.held >= this.options.maxHeld) return { held: false, failures: p.failures };
    p.held++;
    await new Promise((resolve) => setTimeout(resolve, delay));
    p.held--;
    return { held: true, failures: p.failures };
  }

  /** true when this peer has failed past the free allowance recently */
  penalized(peer: string): boolean {
    const p = this.peers.get(peer);
    return !!p && p.failures > this.options.free && Date.now() - p.last <= this.options.forgetMs;
  }
}
