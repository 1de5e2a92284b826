import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GraphQLFormattedError } from 'graphql';
import type { FormattedExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printLoomSchema } from '../../schema/index';
import { SDL_FILE, WEB_TYPES_FILE, webTypesFor } from '../../schema/print';
import { GRAPHIQL_EXAMPLES } from '../../server/graphiql/examples';
import { graphql, type ResultOf } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { raw } from '../helpers/raw-http';
import { webDocuments } from '../helpers/web-documents';

let kernel: TestKernel;
beforeAll(async () => {
  kernel = await startTestKernel(FIXTURES);
});
afterAll(() => kernel.close());

describe('the schema', () => {
  it('matches the checked-in schema/schema.graphql (run `npm run schema:print` after changing it)', () => {
    const checkedIn = readFileSync(join(import.meta.dirname, '..', '..', 'schema', 'schema.graphql'), 'utf8');
    expect(printLoomSchema()).toBe(checkedIn);
  });

  it("matches the dashboard's web/src/graphql-env.d.ts, which gql.tada types its documents with (`npm run schema:print` rewrites both)", async () => {
    expect(readFileSync(WEB_TYPES_FILE, 'utf8')).toBe(await webTypesFor(SDL_FILE));
  });

  it("lets every dashboard document through the kernel's depth, cost and size limits", async () => {
    const refused: Record<string, string[]> = {};
    for (const { name, text, operation } of await webDocuments()) {
      if (operation === 'fragment') continue;
      // sent without variables: a document that passes validation (the limits among its rules) then
      // stops at its first required variable, so no mutation runs; a subscription answers only if refused
      const errors: { message: string }[] =
        operation === 'subscription'
          ? await new Promise((resolve) => {
              const stop = kernel
                .ws()
                .subscribe(
                  { query: text },
                  { next: (r) => resolve([...(r.errors ?? [])]), error: (e) => resolve([].concat(e as never)), complete: () => resolve([]) },
                );
              setTimeout(() => {
                stop();
                resolve([]);
              }, 300);
            })
          : ((await kernel.gql(text)).errors ?? []);
      const limits = errors.map((e) => e.message).filter((m) => /limit|exceeded/i.test(m));
      if (limits.length > 0) refused[name] = limits;
    }
    expect(refused).toEqual({});
  });
});

const PAGE_OF_5 = graphql(`query PageOf5($after: String) { sessions(first: 5, after: $after) { pageInfo { hasNextPage endCursor } nodes { id } } }`);

describe('sessions', () => {
  it('lists the newest activity first and pages with cursors without gaps or repeats', async () => {
    const all = (await kernel.gql(graphql(`query { sessions(first: 100) { totalCount nodes { id updatedAt } } }`))).data.sessions;
    const times = all.nodes.map((s) => Date.parse(s.updatedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const seen: string[] = [];
    let after: string | null = null;
    for (;;) {
      const { data }: { data: ResultOf<typeof PAGE_OF_5> } = await kernel.gql(PAGE_OF_5, { after });
      seen.push(...data.sessions.nodes.map((s) => s.id));
      if (!data.sessions.pageInfo.hasNextPage) break;
      after = data.sessions.pageInfo.endCursor;
    }
    expect(seen).toEqual(all.nodes.map((s) => s.id));
    expect(all.totalCount).toBe(seen.length);
  });

  it('returns 50 sessions when no page size is given', async () => {
    const { data } = await kernel.gql(graphql(`{ sessions { nodes { id } } }`));
    expect(data.sessions.nodes.length).toBe(Math.min(50, (await kernel.gql(graphql(`{ kernel { sessionCount } }`))).data.kernel.sessionCount));
  });

  it('filters by directory, by text in the name and by last activity', async () => {
    const byDir = (await kernel.gql(graphql(`query { sessions(filter: { dir: "/Users/chip/dev/ai-music" }) { nodes { dir } } }`))).data.sessions.nodes;
    expect(byDir.length).toBe(3);
    expect(byDir.every((s) => s.dir === '/Users/chip/dev/ai-music')).toBe(true);
    const byText = (await kernel.gql(graphql(`query { sessions(filter: { text: "embedding" }) { nodes { name } } }`))).data.sessions.nodes;
    expect(byText.map((s) => s.name).sort()).toEqual(['AI Music Generation: Diverse Embedding Mapping', 'AI Music: Embedding Words into Sound']);
    const recent = (await kernel.gql(graphql(`query { sessions(filter: { updatedSince: "2026-04-01T00:00:00Z" }) { nodes { key updatedAt } } }`))).data.sessions
      .nodes;
    expect(recent.map((s) => s.key)).toEqual(['ef958aa1-0e93-49f0-bb71-150f63befcd1']);
  });

  it('answers bad arguments with BAD_USER_INPUT and a message saying what is wrong', async () => {
    const badId = await kernel.gql(graphql(`{ session(id: "no-colon") { id } }`));
    expect(badId.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
    expect(badId.errors![0].message).toMatch(/host:sessionKey/);
    const badFirst = await kernel.gql(graphql(`{ sessions(first: -1) { totalCount } }`));
    expect(badFirst.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/"first"/) });
    const badCursor = await kernel.gql(graphql(`{ sessions(after: "garbage") { totalCount } }`));
    expect(badCursor.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
    // a variable of the wrong type: as text, which its typed document would not let through
    const badVariable = await kernel.gql(`query($n: Int) { sessions(first: $n) { totalCount } }`, { n: 'x' });
    expect(badVariable.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/\$n/) });
  });

  it('returns null for a session on another host or one that does not exist', async () => {
    const { data, errors } = await kernel.gql(
      graphql(`{ a: session(id: "elsewhere:ba79134d-b6e9-4867-af0c-6941038c9e4b") { id } b: session(id: "test:nope") { id } }`),
    );
    expect(errors).toBeUndefined();
    expect(data).toEqual({ a: null, b: null });
  });

  it('refuses a stream of a session that does not exist with NOT_FOUND', async () => {
    // a frame with errors, or the errors graphql-ws ends the subscription with
    const result = await new Promise<FormattedExecutionResult | GraphQLFormattedError[]>((resolve) => {
      kernel
        .ws()
        .subscribe(
          { query: `subscription { sessionStream(sessionId: "test:nope") { cursor } }` },
          { next: resolve, error: (errors) => resolve(errors as GraphQLFormattedError[]), complete: () => {} },
        );
    });
    const errors = Array.isArray(result) ? result : result.errors;
    expect(errors![0].extensions?.code).toBe('NOT_FOUND');
  });
});

describe('the kernel', () => {
  it('reports its host, version and finished indexing', async () => {
    const { data } = await kernel.gql(graphql(`{ hosts { id name local } kernel { version host { name } projectsRoot indexing { done } } }`));
    expect(data.hosts).toEqual([{ id: 'test', name: 'test', local: true }]);
    expect(data.kernel).toMatchObject({ host: { name: 'test' }, projectsRoot: FIXTURES, indexing: { done: true } });
    expect(data.kernel.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('serves health and version without GraphQL', async () => {
    expect(await (await fetch(`${kernel.url}healthz`)).json()).toEqual({ ok: true }); // no token needed
    expect((await (await fetch(`${kernel.url}version`)).json()).version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('serves GraphiQL from the package itself, with no CDN', async () => {
    const res = await kernel.fetch('graphql', { headers: { accept: 'text/html' } });
    const html = await res.text();
    expect(res.status).toBe(200);
    expect(html).toMatch(/graphiql/i);
    expect(html).not.toMatch(/unpkg\.com|jsdelivr|cdn\./);
  });
});

describe('GraphiQL', () => {
  const page = async (headers: Record<string, string>) => raw(kernel.port, { path: '/graphql', headers: { accept: 'text/html', ...headers } });

  it('opens, for a browser signed in with the cookie, on the examples with a link back to the dashboard, its one script allowed by hash', async () => {
    const link = await raw(kernel.port, { path: `/?token=${encodeURIComponent(kernel.token)}` });
    const res = await page({ cookie: String(link.headers['set-cookie']).split(';')[0], 'sec-fetch-site': 'none' });
    expect(res.status).toBe(200);
    // the options reach GraphiQL as JSON: each example as a string of it
    for (const example of GRAPHIQL_EXAMPLES) expect(res.body).toContain(JSON.stringify(example));
    expect(res.body).toContain('"defaultTabs":[{"query":');
    expect(res.body).toContain('<a href=\\"/\\" class=\\"loom-dashboard-link\\"');
    expect(res.body).toContain('<title>Loom GraphiQL</title>');
    const scripts = [...res.body.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => createHash('sha256').update(m[1]).digest('base64'));
    expect(scripts).toHaveLength(1);
    expect(String(res.headers['content-security-policy'])).toContain(`script-src 'self' 'sha256-${scripts[0]}';`);
  });

  it('stays behind the token: no page without the cookie, with a wrong one, or for another site', async () => {
    const link = await raw(kernel.port, { path: `/?token=${encodeURIComponent(kernel.token)}` });
    const cookie = String(link.headers['set-cookie']).split(';')[0];
    const refused = [
      await page({ 'sec-fetch-site': 'none' }),
      await page({ cookie: `${cookie.split('=')[0]}=not-the-cookie`, 'sec-fetch-site': 'none' }),
      await page({ cookie, 'sec-fetch-site': 'cross-site' }),
    ];
    expect(refused.map((r) => r.status)).toEqual([401, 401, 401]);
    for (const r of refused) expect(r.body).not.toContain('defaultTabs');
  });

  it('runs each example query on the kernel without an error, limits included', async () => {
    for (const example of GRAPHIQL_EXAMPLES.filter((e) => !/^subscription /m.test(e))) {
      const { data, errors } = await kernel.gql(example);
      expect(errors).toBeUndefined();
      expect(data).toBeTruthy();
    }
  });
});
