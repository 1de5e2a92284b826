import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Source } from '../spoke/model/source';
import { VERSION } from '../spoke/version';
import { renderIndexPage } from './index-page';
import type { LoomYoga } from './yoga';

// The kernel's HTTP routes: health and version for probes, the index page, and GraphQL.

export function createHttpServer(source: Source, yoga: LoomYoga): Server {
  return createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://loom').pathname;
    if (path === '/healthz') return send(res, 200, 'application/json', JSON.stringify({ ok: true }));
    if (path === '/version') return send(res, 200, 'application/json', JSON.stringify({ version: VERSION }));
    if (path === yoga.graphqlEndpoint) return void yoga(req, res);
    if (path === '/' && isRead(req)) return send(res, 200, 'text/html; charset=utf-8', renderIndexPage(source));
    send(res, 404, 'text/plain; charset=utf-8', `Not found: ${path}\n`);
  });
}

const isRead = (req: IncomingMessage): boolean => req.method === 'GET' || req.method === 'HEAD';

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type, 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
  res.end(body);
}
