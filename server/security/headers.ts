import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';

// Response headers for every route. Pages may run no inline script: the only inline script
// allowed is GraphiQL's own bundle, named by its hash.

const BASE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "manifest-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function setSecurityHeaders(res: ServerResponse, csp = BASE_CSP): void {
  res.setHeader('content-security-policy', csp);
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('cross-origin-opener-policy', 'same-origin');
  res.setHeader('cross-origin-resource-policy', 'same-origin');
  res.setHeader('cache-control', 'no-store');
}

let graphiql: { html: string; csp: string } | null = null;

/**
 * GraphiQL, served offline from the package (the default loads it from a CDN). It is one large
 * inline script that starts workers from blobs: the policy allows exactly that script, by hash.
 */
export function graphiqlPage(): { html: string; csp: string } {
  if (graphiql) return graphiql;
  const html = renderGraphiQL({ title: 'Loom', endpoint: '/graphql', subscriptionsProtocol: 'WS' });
  const hashes = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  const csp = `${BASE_CSP.replace("script-src 'self'", `script-src 'self' ${hashes.join(' ')}`)}; worker-src blob:`;
  graphiql = { html, csp };
  return graphiql;
}
