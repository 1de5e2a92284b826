import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';

// Symbolic links in the projects tree: a linked transcript that lives inside the tree is read;
// a link that leaves the tree or loops back into it is skipped, with one log line, never walked.

let root: string;
let outside: string;
let kernel: TestKernel;
let indexedWithinMs: number;
const links: Record<string, string> = {};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-links-'));
  outside = mkdtempSync(join(tmpdir(), 'loom-links-outside-'));
  const project = join(root, '-home-dev-app');
  mkdirSync(project);
  writeFileSync(join(project, 's1.jsonl'), line(prompt('p1', null, 'the real one')));
  // a transcript kept elsewhere in the tree, linked into a project
  mkdirSync(join(root, 'archive', 'kept', 'here'), { recursive: true });
  writeFileSync(join(root, 'archive', 'kept', 'here', 'real.jsonl'), line(prompt('p2', null, 'linked from inside')));
  symlinkSync(join(root, 'archive', 'kept', 'here', 'real.jsonl'), join(project, 's2.jsonl'));
  // what must be skipped
  writeFileSync(join(outside, 'sess.jsonl'), line(prompt('p3', null, 'from outside')));
  links.etc = join(root, 'etc');
  symlinkSync('/etc', links.etc);
  links.up = join(project, 'up');
  symlinkSync('..', links.up);
  links.outsideDir = join(root, '-outside-project');
  symlinkSync(outside, links.outsideDir);
  links.outsideFile = join(project, 's3.jsonl');
  symlinkSync(join(outside, 'sess.jsonl'), links.outsideFile);
  const started = Date.now();
  kernel = await startTestKernel(root);
  indexedWithinMs = Date.now() - started;
});
afterAll(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

describe('a projects tree with links out of it and into a loop', () => {
  it('indexes, reading the transcript linked from inside the tree and nothing outside it', async () => {
    // CI never asserts on time; this bound only says indexing ends instead of walking a loop
    expect(indexedWithinMs).toBeLessThan(10_000);
    const { data } = await kernel.gql(graphql(`{ sessions { nodes { key name } } }`));
    expect(data.sessions.nodes.map((s) => s.name).sort()).toEqual(['linked from inside', 'the real one']);
  });

  it('logs each skipped link once, and no ELOOP', () => {
    for (const [what, path] of Object.entries(links)) {
      expect(
        kernel.logs.filter((l) => l.includes(path)),
        what,
      ).toHaveLength(1);
    }
    expect(kernel.logs.filter((l) => /ELOOP/.test(l))).toEqual([]);
  });
});
