// Guesses at the token are rationed per peer address: a few wrong ones at once, then a steady
// few a second. While a peer has used up its ration, every credential it presents is answered
// 429 without being compared at all, right or wrong: a 429 that only wrong guesses got would
// itself say "wrong", and did, at ~650 guesses a second. Loopback is one address for every local
// tab and process, so a flood of guesses from a hostile page also keeps the owner's new requests
// waiting until it stops (sockets already open are not checked again); it never learns a token.

export interface ThrottleOptions {
  /** wrong credentials a peer may present at once */
  burst: number;
  /** and then this many a second */
  perSecond: number;
}

export const DEFAULT_THROTTLE: ThrottleOptions = { burst: 10, perSecond: 10 };

/** What a credential check said: in, not in, or nothing (the peer is out of guesses). */
export type Verdict = 'right' | 'wrong' | 'throttled';

/** Peers tracked before those with a full ration are forgotten. */
const SWEEP_AT = 10_000;

interface Peer {
  /** guesses left; refills at perSecond up to burst */
  left: number;
  at: number;
  /** this run of refusals was logged */
  logged: boolean;
}

export class FailureThrottle {
  private readonly peers = new Map<string, Peer>();
  private readonly options: ThrottleOptions;

  constructor(
    options: Partial<ThrottleOptions> = {},
    private readonly log: (message: string) => void = () => {},
  ) {
    this.options = { ...DEFAULT_THROTTLE, ...options };
  }

  /** Compares a peer's credential, unless its guesses are used up: then `compare` is not called. */
  check(peer: string, compare: () => boolean): Verdict {
    const p = this.refilled(peer);
    if (p.left < 1) {
      if (!p.logged) this.log(`wrong tokens from ${peer} faster than ${this.options.perSecond} a second; answering 429 to every token it sends until it slows`);
      p.logged = true;
      return 'throttled';
    }
    if (compare()) return 'right';
    p.left -= 1;
    return 'wrong';
  }

  private refilled(peer: string): Peer {
    const now = Date.now();
    let p = this.peers.get(peer);
    if (!p) {
      if (this.peers.size >= SWEEP_AT) this.sweep(now);
      p = { left: this.options.burst, at: now, logged: false };
      this.peers.set(peer, p);
    }
    p.left = Math.min(this.options.burst, p.left + ((now - p.at) / 1000) * this.options.perSecond);
    p.at = now;
    if (p.left >= 1) p.logged = false;
    return p;
  }

  /** A peer whose ration is full again is as good as new. */
  private sweep(now: number): void {
    for (const [name, p] of this.peers) {
      if (p.left + ((now - p.at) / 1000) * this.options.perSecond >= this.options.burst) this.peers.delete(name);
    }
  }
}
