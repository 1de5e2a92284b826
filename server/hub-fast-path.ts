import type { IncomingMessage, ServerResponse } from 'node:http';
import * as z from 'zod';
import { asRequester } from '../federation/fair-queue';
import type { RemoteDirectory } from '../schema/index';
import { type ForwardPlan, forwardPlan, forwardWhole } from '../schema/remote/forward-whole';
import { VIA_HUB_HEADER } from './security/access';
import { checkedDocument, type LoomYoga } from './yoga';

// A hub answers a POSTed query about one linked host's objects (schema/remote/forward-whole.ts)
// before yoga sees it: yoga's Fetch-API request pipeline costs about what the whole answer costs
// the remote kernel, so skipping it is most of what keeps a hop through the hub cheap
// (docs/performance.md, Federation). The query is still parsed and validated once per text by
// yoga's own parse and validate, limits included; anything else, and a host found unknown or down
// before it is asked, is handed to yoga with the body already read.

/** Bodies past this go to yoga, which has its own limit: a routed query is small. */
const MAX_BODY = 64 * 1024;
/** Query texts whose plan is kept (a dashboard asks a handful of distinct ones). */
const MAX_PLANS = 256;

/** Names the host that answered a forwarded query, for whoever wonders which path it took. */
export const FORWARDED_HEADER = 'x-loom-forwarded-to';

const GraphQLParams = z.object({
  query: z.string(),
  variables: z.record(z.string(), z.unknown()).nullish(),
  operationName: z.string().nullish(),
});

export type HubFastPath = (req: IncomingMessage, res: ServerResponse) => Promise<boolean>;

/** Answers the request and resolves true, or leaves the response to yoga and resolves false. */
export function hubFastPath(yoga: LoomYoga, remotes: RemoteDirectory): HubFastPath {
  const plans = new Map<string, ForwardPlan | null>();

  const planFor = (req: IncomingMessage, query: string, operationName: string | undefined): ForwardPlan | null => {
    const key = JSON.stringify([operationName ?? null, query]);
    let plan = plans.get(key);
    if (plan === undefined) {
      const enveloped = yoga.getEnveloped({ req });
      const { document } = checkedDocument(enveloped, query);
      // a refused query has no plan: yoga answers it, saying why
      plan = document && forwardPlan(enveloped.schema, document, operationName);
      if (plans.size >= MAX_PLANS) plans.delete(plans.keys().next().value!);
      plans.set(key, plan);
    }
    return plan;
  };

  return async (req, res) => {
    if (!remotes.linked() || req.method !== 'POST' || req.headers[VIA_HUB_HEADER] === '1') return false;
    if (!isJson(req.headers['content-type']) || !acceptsJson(req.headers.accept)) return false;
    const length = Number(req.headers['content-length']);
    if (!(length > 0 && length <= MAX_BODY)) return false;
    let raw: Buffer;
    try {
      raw = await readBody(req, length);
    } catch {
      res.destroy(); // the client went away mid-body: no one to answer
      return true;
    }
    const arrived = performance.now();
    // yoga reads a body a server already read from here (as it does behind body parsers)
    (req as IncomingMessage & { body?: Buffer }).body = raw;
    const params = parseParams(raw);
    const plan = params && planFor(req, params.query, params.operationName ?? undefined);
    // it waits for its place at the host as its caller's connection (federation/fair-queue.ts)
    const forwarded = plan && (await asRequester(req.socket, () => forwardWhole(plan, params.variables ?? {}, remotes)));
    if (!forwarded) return false;
    const body = JSON.stringify(forwarded.result);
    const hubMs = performance.now() - arrived - forwarded.remoteMs;
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      [FORWARDED_HEADER]: forwarded.host,
      // where the time went, for browser dev tools and benches: the hub's own work, the host's answer
      'server-timing': `hub;dur=${hubMs.toFixed(2)}, remote;dur=${forwarded.remoteMs.toFixed(2)}`,
    });
    res.end(body);
    return true;
  };
}

function parseParams(body: Buffer): z.infer<typeof GraphQLParams> | null {
  try {
    const parsed = GraphQLParams.safeParse(JSON.parse(body.toString('utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Exactly application/json: never a type a page can send cross-site without a preflight. */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0].trim().toLowerCase() === 'application/json';
}

/** No Accept, or one that takes JSON: others get what they asked for from yoga. */
function acceptsJson(accept: string | undefined): boolean {
  return !accept || accept.includes('application/json') || accept.includes('*/*');
}

/**
 * The body: Node's parser stops it at Content-Length. A small body comes in the headers' packet,
 * and the parser has queued all of it by the first await: taken from there, it skips the stream's
 * events, which cost a hop through the hub a tenth of a millisecond here.
 */
async function readBody(req: IncomingMessage, length: number): Promise<Buffer> {
  await Promise.resolve();
  if (req.readableLength === length) return req.read(length) as Buffer;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // a client gone mid-body: after 'end' this changes nothing
    req.on('close', () => reject(new Error('the request closed before its body ended')));
  });
}
