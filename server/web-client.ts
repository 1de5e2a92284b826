import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { extname, join } from 'node:path';
import { send } from './http-io';

// The dashboard's built files (web/dist, from `npm run build`). Its client-side routes all get
// index.html; assets/ holds content-hashed files, cached for good; the install files (from
// web/public) are the few named below. Nothing else is ever read, whatever the path says.

const DIST = join(import.meta.dirname, '..', 'web', 'dist');
const APP_ROUTES = /^\/(?:$|s\/[^/]+$|timeline$|usage$|settings$)/;
const ASSET = /^\/assets\/([\w.-]+)$/;
/**
 * What a browser fetches to install the dashboard as an app: the manifest (fetched without
 * cookies) and the icons it and index.html name. Served without a token (server/http.ts).
 */
const INSTALL_FILES = new Set(['/manifest.webmanifest', '/icon-192.png', '/icon-512.png', '/icon-maskable-512.png', '/apple-touch-icon.png']);
const TYPES: Record<string, string> = {
  '.webmanifest': 'application/manifest+json',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Loom</title></head>
<body style="font:15px system-ui,sans-serif;margin:4rem auto;max-width:34rem">
<h1>Loom</h1><p>The dashboard is not built yet. Run <code>npm run build</code> in Loom's folder and reload.
The API is up meanwhile: <a href="/graphql">GraphiQL</a>.</p></body></html>\n`;

export const isAppRoute = (pathname: string): boolean => APP_ROUTES.test(pathname);
export const isInstallFile = (pathname: string): boolean => INSTALL_FILES.has(pathname);

/** Answers one of the install files, or 404 when the dashboard is not built. */
export function serveInstallFile(pathname: string, res: ServerResponse): void {
  const body = isInstallFile(pathname) ? readOrNull(join(DIST, pathname.slice(1))) : null;
  if (!body) return send(res, 404, 'text/plain; charset=utf-8', `Not found: ${pathname}\n`);
  res.writeHead(200, { 'content-type': TYPES[extname(pathname)] });
  res.end(body);
}

/** Answers a dashboard route or asset; false when the path is neither. */
export function serveWebClient(pathname: string, res: ServerResponse): boolean {
  if (isAppRoute(pathname)) {
    const html = readOrNull(join(DIST, 'index.html'));
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(html ?? NOT_BUILT);
    return true;
  }
  const asset = ASSET.exec(pathname)?.[1];
  const type = asset ? TYPES[extname(asset)] : undefined;
  if (!asset || !type) return false;
  const body = readOrNull(join(DIST, 'assets', asset));
  if (!body) return false;
  res.writeHead(200, { 'content-type': type, 'cache-control': 'public, max-age=31536000, immutable' });
  res.end(body);
  return true;
}

function readOrNull(path: string): Buffer | null {
  try {
    return statSync(path).isFile() ? readFileSync(path) : null;
  } catch {
    return null;
  }
}
