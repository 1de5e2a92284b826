import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';

// "Did you mean …" maps the schema for whoever asks, one typo at a time: no error the kernel
// sends may carry it, whichever part of GraphQL wrote the message.

let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-suggest-'));
  mkdirSync(join(root, '-home-dev-app'));
  writeFileSync(join(root, '-home-dev-app', 's1.jsonl'), line(prompt('p1', null, 'hello')));
  kernel = await startTestKernel(root);
});
afterAll(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

/** Each a near miss of a real name, where graphql-js would suggest the right one. */
const WRONG: { what: string; query: string; variables?: Record<string, unknown> }[] = [
  { what: 'a wrong field', query: '{ sesions { nodes { name } } }' },
  { what: 'a wrong enum value in a literal', query: '{ usage(groupBy: DAYS) { key } }' },
  { what: 'a wrong enum value in a variable', query: 'query ($g: UsageGroup!) { usage(groupBy: $g) { key } }', variables: { g: 'DAYS' } },
  { what: 'a wrong argument name', query: '{ sessions(frist: 5) { nodes { name } } }' },
  { what: 'a wrong input field', query: '{ sessions(filter: { txt: "a" }) { nodes { name } } }' },
  { what: 'a wrong type name in a fragment', query: '{ sessions { nodes { ...F } } } fragment F on Sesion { name }' },
];

describe('errors about a wrong name', () => {
  it('never suggest the right name over HTTP', async () => {
    for (const { what, query, variables } of WRONG) {
      const body = JSON.stringify(await kernel.gql(query, variables));
      expect(body, what).toContain('"errors"');
      expect(body, what).not.toMatch(/did you mean|suggestion/i);
    }
  });

  it('never suggest the right name over the WebSocket', async () => {
    const client = kernel.ws();
    for (const { what, query, variables } of WRONG) {
      const answer = await new Promise<string>((resolve) => {
        const parts: unknown[] = [];
        client.subscribe(
          { query, variables },
          {
            next: (result) => parts.push(result),
            error: (err) => resolve(JSON.stringify([...parts, err])),
            complete: () => resolve(JSON.stringify(parts)),
          },
        );
      });
      expect(answer, what).toMatch(/message/);
      expect(answer, what).not.toMatch(/did you mean|suggestion/i);
    }
  });
});
