import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphQLFormattedError } from 'graphql';
import type { FormattedExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startKernel } from '../../server/kernel';
import { rotateToken } from '../../server/security/token';
import { VERSION } from '../../spoke/version';
import { graphql } from '../../web/src/lib/graphql';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { OVER_LIMIT_QUERIES } from '../helpers/over-limit-queries';
import { raw, upgradeStatus } from '../helpers/raw-http';
import { line, prompt } from '../helpers/records';
import { until } from '../helpers/wait';

// What a hostile page, a DNS-rebinding site or another local user can send, over real sockets.

let root: string;
let kernel: TestKernel;
let port: number;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-sec-'));
  mkdirSync(join(root, '-home-dev-secret'));
  writeFileSync(join(root, '-home-dev-secret', 's1.jsonl'), line(prompt('p1', null, 'the secret plan')));
  kernel = await startTestKernel(root);
  port = kernel.port;
});
afterAll(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

const QUERY = JSON.stringify({ query: '{ sessions { nodes { name } } }' });
const own = () => `http://127.0.0.1:${port}`;

/** Opens a graphql-ws socket by hand and resolves with the close code. */
function closeCode(init: object | null, headers: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws', { headers });
    ws.on('open', () => init && ws.send(JSON.stringify({ type: 'connection_init', payload: init })));
    ws.on('close', (code) => resolve(code));
    ws.on('error', reject);
  });
}

describe('Host and Origin', () => {
  it('refuses foreign Host names on HTTP and on the upgrade, and serves the three loopback forms', async () => {
    for (const host of ['evil.example', 'localhost.evil.com', `192.168.7.7:${port}`, `evil.example:${port}`]) {
      const res = await raw(port, {
        path: '/graphql',
        method: 'POST',
        headers: { host, 'x-loom-token': kernel.token, 'content-type': 'application/json' },
        body: QUERY,
      });
      expect(res.status, host).toBe(403);
      expect(res.body).not.toContain('secret');
      expect(await upgradeStatus(port, { host }), host).toBe(403);
    }
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]) {
      const res = await raw(port, {
        path: '/graphql',
        method: 'POST',
        headers: { host, 'x-loom-token': kernel.token, 'content-type': 'application/json' },
        body: QUERY,
      });
      expect(res.status, host).toBe(200);
      expect(res.body).toContain('the secret plan');
      expect(await upgradeStatus(port, { host, origin: `http://${host}` }), host).toBe(101);
    }
  });

  it('refuses a WebSocket upgrade from another site, a null origin or another localhost port before it completes', async () => {
    for (const origin of ['http://evil.example', 'null', `http://127.0.0.1:${port + 1}`, `http://localhost:${port + 1}`]) {
      expect(await upgradeStatus(port, { origin }), origin).toBe(403);
    }
  });

  it('closes a socket with 4403 when connection_init has no token, and 4408 when it never comes', async () => {
    expect(await closeCode({})).toBe(4403);
    expect(await closeCode({ token: 'wrong' })).toBe(4403);
    expect(await closeCode(null)).toBe(4408);
    const ok = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    const ack = await new Promise<string>((resolve) => {
      ok.on('open', () => ok.send(JSON.stringify({ type: 'connection_init', payload: { token: kernel.token } })));
      ok.on('message', (m) => resolve(JSON.parse(String(m)).type));
    });
    expect(ack).toBe('connection_ack');
    ok.close();
  });

  it('answers a cross-origin request with 403 and no CORS headers', async () => {
    for (const method of ['GET', 'POST', 'OPTIONS']) {
      const res = await raw(port, {
        method,
        path: '/graphql',
        headers: { origin: 'http://evil.example', 'x-loom-token': kernel.token, 'content-type': 'application/json', 'access-control-request-method': 'POST' },
        body: method === 'POST' ? QUERY : undefined,
      });
      expect(res.status).toBe(403);
      expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
      expect(res.body).not.toContain('secret');
    }
  });
});

describe('the token', () => {
  it('gates every route but /healthz and /version, with no data in the refusal', async () => {
    for (const [method, path, headers] of [
      ['GET', '/', {}],
      ['GET', '/graphql', { accept: 'text/html' }],
      ['POST', '/graphql', { 'content-type': 'application/json' }],
      ['GET', '/graphql?query=%7Bsessions%7Bnodes%7Bname%7D%7D%7D', {}],
      ['GET', '/anything', {}],
    ] as const) {
      const res = await raw(port, { method, path, headers: { ...headers }, body: method === 'POST' ? QUERY : undefined });
      expect([401, 403], `${method} ${path}`).toContain(res.status);
      expect(res.body).not.toContain('secret');
    }
    expect((await raw(port, { path: '/healthz' })).status).toBe(200);
    expect(JSON.parse((await raw(port, { path: '/version' })).body).version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('shows a bare / the login page, which takes a pasted token and sets the cookie', async () => {
    const page = await raw(port, { path: '/', headers: { accept: 'text/html' } });
    expect(page.body).toContain('<form method="post" action="/login">');
    expect(page.body).not.toMatch(/<script/);
    const wrong = await raw(port, {
      method: 'POST',
      path: '/login',
      headers: { origin: own(), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'token=nope',
    });
    expect(wrong.status).toBe(401);
    const right = await raw(port, {
      method: 'POST',
      path: '/login',
      headers: { origin: own(), 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${encodeURIComponent(kernel.token)}`,
    });
    expect(right.status).toBe(303);
    expect(String(right.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const crossSite = await raw(port, {
      method: 'POST',
      path: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `token=${kernel.token}`,
    });
    expect(crossSite.status).toBe(403);
  });

  it('trades ?token= for an HttpOnly SameSite=Strict cookie and a redirect to the clean URL', async () => {
    const res = await raw(port, { path: `/?token=${encodeURIComponent(kernel.token)}&view=x`, headers: { 'sec-fetch-site': 'none' } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/?view=x');
    const cookie = String(res.headers['set-cookie']).split(';')[0];
    expect(cookie).not.toContain(kernel.token);
    expect(String(res.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/);
    const page = await raw(port, { path: '/', headers: { cookie, 'sec-fetch-site': 'none' } });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="root">');
    // The cookie counts only from this kernel's own page.
    expect((await raw(port, { path: '/', headers: { cookie, origin: 'http://evil.example' } })).status).toBe(403);
    expect((await raw(port, { method: 'POST', path: '/graphql', headers: { cookie, 'content-type': 'application/json' }, body: QUERY })).status).toBe(401);
    const fromPage = await raw(port, { method: 'POST', path: '/graphql', headers: { cookie, origin: own(), 'content-type': 'application/json' }, body: QUERY });
    expect(fromPage.body).toContain('the secret plan');
  });

  it('lets the owner in once 1,000 wrong tokens from the same address stop', async () => {
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, () =>
        raw(port, { method: 'POST', path: '/graphql', headers: { 'x-loom-token': 'guess', 'content-type': 'application/json' }, body: QUERY }),
      ),
    );
    expect(statuses.every((r) => r.status === 401 || r.status === 429)).toBe(true);
    expect(statuses.filter((r) => r.status === 401).length).toBeLessThan(100);
    // a guess comes back every 100 ms, and the owner's token is one (a generous bound: CI never times)
    const owner = await until(
      async () => {
        const res = await raw(port, {
          method: 'POST',
          path: '/graphql',
          headers: { 'x-loom-token': kernel.token, 'content-type': 'application/json' },
          body: QUERY,
        });
        return res.status === 200 ? res : null;
      },
      'the owner let in after the guesses stopped',
      5000,
    );
    expect(owner.body).toContain('the secret plan');
  });
});

describe('requests a cross-site page could forge', () => {
  it('refuses a text/plain POST and a header-less GET query even with the cookie', async () => {
    const link = await raw(port, { path: `/?token=${encodeURIComponent(kernel.token)}` });
    const cookie = String(link.headers['set-cookie']).split(';')[0];
    const plain = await raw(port, { method: 'POST', path: '/graphql', headers: { cookie, origin: own(), 'content-type': 'text/plain' }, body: QUERY });
    expect(plain.status).toBe(403);
    expect(plain.body).not.toContain('secret');
    const get = await raw(port, { path: '/graphql?query=%7Bsessions%7Bnodes%7Bname%7D%7D%7D', headers: { cookie, 'sec-fetch-site': 'same-origin' } });
    expect(get.status).toBe(403);
  });

  it('refuses a mutation sent by GET', async () => {
    const res = await raw(port, { path: '/graphql?query=mutation%7B__typename%7D', headers: { 'x-loom-token': kernel.token } });
    expect(res.status).toBe(405);
    expect(res.body).toMatch(/mutation operation from a POST request/);
  });
});

describe('GraphQL limits', () => {
  it('refuses a query 20 deep, one with 100 aliases and one of 10,000 tokens on HTTP, running nothing', async () => {
    for (const [query, limit] of OVER_LIMIT_QUERIES) {
      const res = await kernel.gql(query);
      expect(res.errors?.[0]?.message).toMatch(limit);
      expect(res.data).toBeUndefined();
    }
  });

  it('refuses the same queries over the WebSocket', async () => {
    const client = kernel.ws();
    for (const [query, limit] of OVER_LIMIT_QUERIES) {
      // a frame with errors, or the errors graphql-ws ends the subscription with
      const result = await new Promise<FormattedExecutionResult | GraphQLFormattedError[]>((resolve) =>
        client.subscribe({ query }, { next: resolve, error: (errors) => resolve(errors as GraphQLFormattedError[]), complete: () => {} }),
      );
      const errors = Array.isArray(result) ? result : result.errors;
      expect(errors![0].message).toMatch(limit);
    }
  });
});

describe('what errors and pages reveal', () => {
  it('never puts a file path or the token in an error message', async () => {
    const file = join(root, '-home-dev-secret', 's1.jsonl');
    const { data } = await kernel.gql(graphql(`{ session(id: "test:s1") { turns { atoms { uuid } } } }`));
    expect(data.session!.turns[0].atoms[0].uuid).toBe('p1');
    // Same size, same inode, another line: the index still points at the old one.
    writeFileSync(file, line(prompt('p2', null, 'the secret plan')));
    const res = await kernel.gql(graphql(`{ session(id: "test:s1") { turns { atoms { content { __typename } } } } }`));
    const text = JSON.stringify(res.errors);
    expect(res.errors![0].extensions?.code).toBe('UNAVAILABLE');
    expect(text).not.toContain(root);
    expect(text).not.toContain(kernel.token);
    expect(text).not.toMatch(/stack|at .*\.ts:\d+/);
  });

  it('sends a Content-Security-Policy without inline script, and the other protective headers', async () => {
    const res = await raw(port, { path: '/', headers: { 'x-loom-token': kernel.token } });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain("unsafe-inline' ;");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    const graphiql = await raw(port, { path: '/graphql', headers: { 'x-loom-token': kernel.token, accept: 'text/html' } });
    expect(String(graphiql.headers['content-security-policy'])).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+'/);
  });
});

describe('rotation', () => {
  it('ends the old token, its cookies and its open sockets when the token is rotated', async () => {
    const local = await startTestKernel(root);
    try {
      const old = local.token;
      const link = await raw(local.port, { path: `/?token=${encodeURIComponent(old)}` });
      const cookie = String(link.headers['set-cookie']).split(';')[0];
      const ws = new WebSocket(`ws://127.0.0.1:${local.port}/graphql`, 'graphql-transport-ws');
      const closed = new Promise<number>((resolve) => ws.on('close', resolve));
      await new Promise<void>((resolve) => {
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { token: old } })));
        ws.on('message', () => resolve());
      });
      const fresh = rotateToken(local.stateDir);
      expect(fresh).not.toBe(old);
      // at once, whether or not the kernel's watch on its state dir has told it yet
      expect((await raw(local.port, { path: '/', headers: { 'x-loom-token': fresh } })).status).toBe(200);
      expect(await closed).toBe(4403);
      expect((await raw(local.port, { path: '/', headers: { 'x-loom-token': old } })).status).toBe(401);
      expect((await raw(local.port, { path: '/', headers: { cookie, 'sec-fetch-site': 'none' } })).status).toBe(401);
      expect((await raw(local.port, { path: '/', headers: { 'x-loom-token': fresh } })).status).toBe(200);
    } finally {
      await local.close();
    }
  });
});

describe('binding', () => {
  it('warns when told to listen beyond loopback, and still checks Host there', async () => {
    const logs: string[] = [];
    const stateDir = mkdtempSync(join(tmpdir(), 'loom-sec-state-'));
    const wide = await startKernel({ projectsRoot: root, stateDir, port: 0, bindHost: '0.0.0.0', log: (m) => logs.push(m) });
    try {
      expect(logs.some((l) => /warning: listening on 0\.0\.0\.0, not loopback/.test(l))).toBe(true);
      expect((await raw(wide.port, { path: '/healthz', headers: { host: `evil.example:${wide.port}` } })).status).toBe(403);
      expect((await raw(wide.port, { path: '/healthz' })).status).toBe(200);
    } finally {
      await wide.close();
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});

describe('the state dir', () => {
  async function startOn(stateDir: string): Promise<string> {
    return startKernel({ projectsRoot: root, stateDir, port: 0 }).then(
      async (k) => {
        await k.close();
        return 'started';
      },
      (err: Error) => err.message,
    );
  }

  it('refuses to start when the token file is readable by others, or is a symlink, and says why', async () => {
    const loose = mkdtempSync(join(tmpdir(), 'loom-sec-state-'));
    writeFileSync(join(loose, 'token'), 'x'.repeat(43), { mode: 0o644 });
    chmodSync(join(loose, 'token'), 0o644);
    expect(await startOn(loose)).toMatch(/token is open to other users \(mode 644\); run: chmod 600/);

    const linked = mkdtempSync(join(tmpdir(), 'loom-sec-state-'));
    writeFileSync(join(loose, 'elsewhere'), 'x'.repeat(43), { mode: 0o600 });
    symlinkSync(join(loose, 'elsewhere'), join(linked, 'token'));
    expect(await startOn(linked)).toMatch(/token is a symbolic link/);

    const openDir = mkdtempSync(join(tmpdir(), 'loom-sec-state-'));
    chmodSync(openDir, 0o755);
    expect(await startOn(openDir)).toMatch(/is open to other users \(mode 755\); run: chmod 700/);
    for (const d of [loose, linked, openDir]) rmSync(d, { recursive: true, force: true });
  });

  it('creates a token of 256 bits, readable by its owner only', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'loom-sec-state-'));
    expect(await startOn(fresh)).toBe('started');
    const { statSync, readFileSync } = await import('node:fs');
    expect(statSync(join(fresh, 'token')).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(fresh, 'token'), 'utf8').trim(), 'base64url').length).toBe(32);
    rmSync(fresh, { recursive: true, force: true });
  });
});

describe('WebSocket limits', () => {
  it('closes a socket that sends a message over 1 MiB', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve) => ws.on('open', resolve));
    const code = new Promise<number>((resolve) => ws.on('close', resolve));
    ws.send('x'.repeat(1024 * 1024 + 10));
    expect(await code).toBe(1009);
  });

  /** A signed-in raw socket asking for `streams` streams of a 1 MB atom, not reading until told. */
  async function megabyteStreams(streams: number): Promise<{ socket: import('node:net').Socket; closed: Promise<void>; frames: () => number }> {
    // graphql-ws sends a subscription's next frame only once the last one left, so one stream
    // never queues more than a frame; many streams of megabyte frames to a client that stopped
    // reading do, once the socket buffers (here up to 36 MB of TCP buffers on loopback) are full.
    writeFileSync(join(root, '-home-dev-secret', 'big.jsonl'), line(prompt('b0', null, 'x'.repeat(1024 * 1024))));
    await until(async () => (await kernel.gql(graphql(`{ session(id: "test:big") { id } }`))).data.session, 'the big session');
    const ws = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()));
    await new Promise<void>((resolve) => {
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { token: kernel.token } })));
      ws.once('message', () => resolve());
    });
    let frames = 0;
    ws.on('message', (data) => (frames += String(data).includes('"next"') ? 1 : 0));
    const socket = (ws as unknown as { _socket: import('node:net').Socket })._socket;
    socket.pause(); // stop reading
    const query = 'subscription { sessionStream(sessionId: "test:big") { atoms { content { ... on TextBlock { text } } } } }';
    for (let id = 1; id <= streams; id++) ws.send(JSON.stringify({ id: String(id), type: 'subscribe', payload: { query } }));
    return { socket, closed, frames: () => frames };
  }
  const dropped = () => kernel.logs.filter((l) => /dropping WebSocket client 127\.0\.0\.1:\d+: more than 16 MB behind/.test(l));

  it('drops a client that stops reading once it is 16 MB behind, and says so once in the log', { timeout: 60_000 }, async () => {
    const { socket, closed } = await megabyteStreams(90);
    await until(() => dropped().length > 0, 'the drop to be logged', 30_000);
    socket.resume();
    await closed;
    expect(dropped()).toHaveLength(1);
  });

  it('keeps a client more than 16 MB behind while it reads, slowly, what it was sent', { timeout: 60_000 }, async () => {
    const before = dropped().length;
    const { socket, frames } = await megabyteStreams(90);
    // it reads about 12 MB a second: for a few seconds of looks it is more than 16 MB behind, but
    // less at each look than at the one before
    const reading = setInterval(() => {
      socket.resume();
      setTimeout(() => socket.pause(), 5);
    }, 25);
    await until(() => frames() === 90, 'all 90 frames read', 40_000);
    clearInterval(reading);
    socket.resume();
    expect(dropped()).toHaveLength(before);
  });

  it('refuses the 101st subscription on one socket, and still answers queries there', async () => {
    const client = kernel.ws();
    const errors: unknown[] = [];
    const stops = Array.from({ length: 101 }, () =>
      client.subscribe({ query: 'subscription { sessionsChanged { kind } }' }, { next: () => {}, error: (e) => errors.push(e), complete: () => {} }),
    );
    await until(() => errors.length > 0, 'the 101st subscription to be refused');
    expect(JSON.stringify(errors[0])).toMatch(/at most 100 subscriptions per connection/);
    expect(errors).toHaveLength(1);
    // a query ends with its answer: it does not count (a hub asks everything on one socket)
    const answer = await new Promise((resolve, reject) =>
      client.subscribe({ query: '{ kernel { version } }' }, { next: resolve, error: reject, complete: () => {} }),
    );
    expect(answer).toEqual({ data: { kernel: { version: VERSION } } });
    for (const stop of stops) stop();
  });
});
