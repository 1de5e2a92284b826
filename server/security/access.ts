import { createHmac } from 'node:crypto';
import { type FSWatcher, watch } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { matchesDigest, readToken, tokenDigest, tokenStamp, tokensEqual } from './token';

// Who may talk to this kernel. Three checks, in order, on every request and WebSocket upgrade:
// the Host header names this kernel (DNS rebinding sends a foreign name), the Origin, when a
// browser sends one, is this kernel's own page (cross-site requests and WebSocket hijacking),
// and the caller holds the token (header, cookie, or the one-time ?token= link).

export const TOKEN_HEADER = 'x-loom-token';
/** The header (HTTP) and connection_init field `viaHub` (graphql-ws) a hub marks its requests with. */
export const VIA_HUB_HEADER = 'x-loom-via-hub';
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];
/** The longest a watched token file goes without its stamp checked. */
const RECHECK_MS = 1000;

export interface AccessOptions {
  stateDir: string;
  port: number;
  /** the address the kernel listens on */
  bindHost: string;
  /** more names this kernel may be reached by (`--allow-host`) */
  extraHosts?: string[];
}

export type Credential = 'header' | 'cookie' | 'connection-init' | null;

export class AccessPolicy {
  readonly hosts: Set<string>;
  readonly origins: Set<string>;
  readonly cookieName: string;
  private cached: { stamp: string; token: string; digest: Buffer; checkedAt: number } | null = null;
  /** tells when the token file changes; null where the state dir cannot be watched */
  private watcher: FSWatcher | null = null;

  constructor(private readonly options: AccessOptions) {
    const names = new Set([...LOOPBACK_NAMES, ...(options.extraHosts ?? [])]);
    if (!isLoopback(options.bindHost)) names.add(options.bindHost.includes(':') ? `[${options.bindHost}]` : options.bindHost);
    this.hosts = new Set([...names].flatMap((n) => (options.port === 80 ? [n, `${n}:80`] : [`${n}:${options.port}`])));
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`));
    // Cookies are not kept apart by port: the port in the name keeps two kernels apart.
    this.cookieName = `loom_${options.port}`;
    this.watchToken();
  }

  close(): void {
    this.watcher?.close();
    this.watcher = null;
  }

  hostAllowed(req: IncomingMessage): boolean {
    const host = req.headers.host?.toLowerCase();
    return !!host && this.hosts.has(host);
  }

  /** Absent is not allowed here: callers decide what a missing Origin may do. */
  originAllowed(origin: string | undefined): boolean {
    return !!origin && this.origins.has(origin.toLowerCase());
  }

  /** The current token, re-read when the file changes (`loom token --rotate`). */
  token(): string {
    return this.current().token;
  }

  /** A fingerprint of the current token, to tell sessions opened under an old one. */
  fingerprint(): string {
    return createHmac('sha256', this.token()).update('loom-fingerprint').digest('base64url').slice(0, 16);
  }

  validToken(given: string | undefined | null): boolean {
    if (typeof given !== 'string' || given.length === 0) return false;
    // a token other than the one last read may have just been written, before the watch says so
    return matchesDigest(given, this.current().digest) || (this.changedOnDisk() && matchesDigest(given, this.current().digest));
  }

  /** What the browser keeps instead of the token: derived from it, so a rotation voids it. */
  cookieValue(): string {
    return createHmac('sha256', this.token()).update('loom-cookie-v1').digest('base64url');
  }

  setCookieHeader(): string {
    return `${this.cookieName}=${this.cookieValue()}; Path=/; HttpOnly; SameSite=Strict; Max-Age=2592000`;
  }

  /**
   * How a request proves it is the owner. The header works anywhere; the cookie only from this
   * kernel's own page: with an allowed Origin, or with none on a GET the browser says it made
   * from this origin or from the address bar.
   */
  credential(req: IncomingMessage): Credential {
    const header = req.headers[TOKEN_HEADER];
    if (typeof header === 'string') return this.validToken(header) ? 'header' : null;
    const cookie = readCookie(req.headers.cookie, this.cookieName);
    if (!cookie || !tokensEqual(cookie, this.cookieValue())) return null;
    const origin = req.headers.origin;
    if (origin !== undefined) return this.originAllowed(origin) ? 'cookie' : null;
    const site = req.headers['sec-fetch-site'];
    return req.method === 'GET' && (site === 'same-origin' || site === 'none') ? 'cookie' : null;
  }

  /** The tokenized link to open the dashboard. */
  link(url: string): string {
    return tokenLink(url, this.token());
  }

  /**
   * The token file as last read. While the state dir is watched, its stamp is checked at most once
   * a second (a watch can miss changes, on a network or a shared file system), and at once when
   * the watch says the file changed: a stat on every request cost a hop through a hub 0.06 ms here.
   * Where the dir cannot be watched, the stamp is checked on every request.
   */
  private current(): { token: string; digest: Buffer } {
    const now = Date.now();
    if (this.cached && this.watcher && now - this.cached.checkedAt < RECHECK_MS) return this.cached;
    const stamp = tokenStamp(this.options.stateDir);
    if (this.cached?.stamp === stamp) {
      this.cached.checkedAt = now;
    } else {
      const token = readToken(this.options.stateDir);
      this.cached = { stamp, token, digest: tokenDigest(token), checkedAt: now };
    }
    return this.cached;
  }

  /** Whether the file is not the one last read (then it is read again at the next look). */
  private changedOnDisk(): boolean {
    if (this.cached?.stamp === tokenStamp(this.options.stateDir)) return false;
    this.cached = null;
    return true;
  }

  private watchToken(): void {
    try {
      this.watcher = watch(this.options.stateDir, { persistent: false }, (_event, name) => {
        if (!name || name === 'token') this.cached = null;
      });
      // a watch that fails leaves the stat on every request
      this.watcher.on('error', () => this.close());
    } catch {
      this.watcher = null;
    }
  }
}

/** A link that signs a browser in once: the kernel trades the token for a cookie and redirects. */
export const tokenLink = (url: string, token: string): string => `${url}?token=${encodeURIComponent(token)}`;

function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
