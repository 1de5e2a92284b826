import type { IncomingMessage, ServerResponse } from 'node:http';

// Reading a small request body and sending a whole answer: what the kernel's own routes share.

/** The body as text, or null past `limit` characters (the request is then cut off) or on error. */
export function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > limit) {
        resolve(null);
        req.destroy();
      }
    });
    req.on('end', () => resolve(body));
    req.on('error', () => resolve(null));
  });
}

export function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, { 'content-type': type });
  res.end(body);
}
