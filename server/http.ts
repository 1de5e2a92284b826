import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Actions } from '../spoke/act/actions';
import type { Driving } from '../spoke/drive/driving';
import { VERSION } from '../spoke/version';
import { graphiqlPage } from './graphiql/page';
import { PERMISSION_HOOK_PATH, permissionHook, STOP_HOOK_PATH, stopHook } from './hook-route';
import { readBody, send } from './http-io';
import type { HubFastPath } from './hub-fast-path';
import { renderLoginPage } from './login-page';
import type { AccessPolicy } from './security/access';
import { setSecurityHeaders } from './security/headers';
import type { FailureThrottle } from './security/throttle';
import { isAppRoute, isInstallFile, serveInstallFile, serveWebClient } from './web-client';
import type { LoomYoga } from './yoga';

// The kernel's HTTP routes. Every request passes the Host and Origin checks first; /healthz,
// /version and the app's install files (manifest and icons) answer without a token; everything
// else needs one.

const MAX_LOGIN_BODY = 4096;

export interface HttpDeps {
  yoga: LoomYoga;
  actions: Actions;
  driving: Driving;
  hubFastPath: HubFastPath;
  access: AccessPolicy;
  throttle: FailureThrottle;
  log: (message: string) => void;
}

/** The 'request' listener of the kernel's HTTP server. */
export function httpHandler(deps: HttpDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    handle(deps, req, res).catch((err) => {
      deps.log(`request ${req.method} ${req.url} failed: ${(err as Error).stack}`);
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'Internal error\n');
      else res.destroy();
    });
  };
}

async function handle(deps: HttpDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const { access, yoga } = deps;
  setSecurityHeaders(res);
  if (!access.hostAllowed(req)) {
    return send(res, 403, 'text/plain; charset=utf-8', `Forbidden: this kernel does not answer to Host "${req.headers.host ?? ''}".\n`);
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !access.originAllowed(origin)) {
    return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden: requests from other sites are refused.\n');
  }
  const url = new URL(req.url ?? '/', 'http://loom');
  if (url.pathname === '/healthz') return send(res, 200, 'application/json', JSON.stringify({ ok: true }));
  if (url.pathname === '/version') return send(res, 200, 'application/json', JSON.stringify({ version: VERSION }));
  // a browser fetches the manifest without cookies: installing the app needs these to be public
  if (isRead(req) && isInstallFile(url.pathname)) return serveInstallFile(url.pathname, res);
  if (req.method === 'GET' && url.searchParams.has('token')) return tokenLink(deps, req, res, url);
  if (url.pathname === '/login' && req.method === 'POST') return login(deps, req, res);

  const presented = req.headers['x-loom-token'] !== undefined || (req.headers.cookie ?? '').includes(`${access.cookieName}=`);
  if (!presented) return anonymous(req, res, url);
  const verdict = deps.throttle.check(peerOf(req), () => access.credential(req) !== null);
  if (verdict !== 'right') return refuse(req, res, verdict, 'That token is not this kernel’s, or it was rotated.');

  if ((url.pathname === PERMISSION_HOOK_PATH || url.pathname === STOP_HOOK_PATH) && req.method === 'POST') {
    if (access.credential(req) !== 'header') return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden: only Loom’s hook asks here.\n');
    if (url.pathname === STOP_HOOK_PATH) return stopHook(deps.driving, req, res, deps.log);
    return permissionHook(deps.actions, req, res, deps.log);
  }
  if (url.pathname === yoga.graphqlEndpoint) {
    if (req.method === 'GET' && prefersHtml(req)) {
      const page = await graphiqlPage();
      res.setHeader('content-security-policy', page.csp);
      return send(res, 200, 'text/html; charset=utf-8', page.html);
    }
    if (await deps.hubFastPath(req, res)) return;
    return void yoga(req, res);
  }
  if (isRead(req) && serveWebClient(url.pathname, res)) return;
  send(res, 404, 'text/plain; charset=utf-8', `Not found: ${url.pathname}\n`);
}

/** `/?token=…` once: trade it for the cookie, then send the browser to the clean URL. */
async function tokenLink(deps: HttpDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const verdict = deps.throttle.check(peerOf(req), () => deps.access.validToken(url.searchParams.get('token')));
  if (verdict !== 'right') return refuse(req, res, verdict, 'That link holds a wrong or old token.');
  url.searchParams.delete('token');
  res.setHeader('set-cookie', deps.access.setCookieHeader());
  res.setHeader('location', `${ownPath(url.pathname)}${url.search}`);
  send(res, 302, 'text/plain; charset=utf-8', 'Signed in.\n');
}

/**
 * A path a browser resolves on this origin: one leading slash, then anything but a slash or a
 * backslash (`//host` and `/\host` name another site; URL parsing makes `/.//host` the former).
 */
const ownPath = (pathname: string): string => `/${pathname.replace(/^[/\\]+/, '')}`;

/** The login form's POST: only from this kernel's own page. */
async function login(deps: HttpDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (!deps.access.originAllowed(req.headers.origin)) {
    return send(res, 403, 'text/plain; charset=utf-8', 'Forbidden: sign in from the Loom page itself.\n');
  }
  const body = await readBody(req, MAX_LOGIN_BODY);
  const token = body === null ? null : new URLSearchParams(body).get('token');
  const verdict = deps.throttle.check(peerOf(req), () => deps.access.validToken(token?.trim()));
  if (verdict !== 'right') return refuse(req, res, verdict, 'That token is not this kernel’s.');
  res.setHeader('set-cookie', deps.access.setCookieHeader());
  res.setHeader('location', '/');
  send(res, 303, 'text/plain; charset=utf-8', 'Signed in.\n');
}

/** No credential at all: a bare visit to `/` gets the login page, anything else the way to sign in. */
function anonymous(req: IncomingMessage, res: ServerResponse, url: URL): void {
  if (isAppRoute(url.pathname) && isRead(req)) return send(res, 401, 'text/html; charset=utf-8', renderLoginPage(null));
  send(res, 401, 'text/plain; charset=utf-8', 'Unauthorized: send the token in the X-Loom-Token header (see `loom url`).\n');
}

/** A credential that did not let the caller in; while throttled, nobody knows whether it was right. */
function refuse(req: IncomingMessage, res: ServerResponse, verdict: 'wrong' | 'throttled', message: string): void {
  if (verdict === 'throttled') {
    res.setHeader('retry-after', '1');
    return send(res, 429, 'text/plain; charset=utf-8', 'Too many wrong tokens from this address; wait a moment.\n');
  }
  if (prefersHtml(req)) return send(res, 401, 'text/html; charset=utf-8', renderLoginPage(message));
  send(res, 401, 'text/plain; charset=utf-8', `Unauthorized: ${message}\n`);
}

const peerOf = (req: IncomingMessage): string => req.socket.remoteAddress ?? 'unknown';
const isRead = (req: IncomingMessage): boolean => req.method === 'GET' || req.method === 'HEAD';
const prefersHtml = (req: IncomingMessage): boolean => (req.headers.accept ?? '').includes('text/html');
