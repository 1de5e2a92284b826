import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layers (docs/architecture.md, "Layers"), checked on the source itself: every import between
// the project's own files, type-only ones included, read from the text of each .ts/.tsx file. A
// circle among imports, or an arrow pointing the wrong way between folders, fails here with the
// files named.

const ROOT = resolve(import.meta.dirname, '..', '..');
const FOLDERS = ['spoke', 'schema', 'server', 'federation', 'web/src', 'demo'];

/** Project-relative path (always with `/`) → the project files it imports. */
type Graph = Map<string, string[]>;

/**
 * What a file imports: `import … from`, `import type … from`, `import '…'`, `export … from`
 * (statements, so they start a line; a code sample inside a string or a comment does not), and
 * `import('…')` anywhere (a dynamic import, or a type written as one), and `require('…')`.
 */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const statement = /^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"\n]+)['"]/gm;
  const bare = /^[ \t]*import\s*['"]([^'"\n]+)['"]/gm;
  const call = /\b(?:import|require)\(\s*['"]([^'"\n]+)['"]\s*\)/g;
  for (const pattern of [statement, bare, call]) for (const m of text.matchAll(pattern)) found.push(m[1]);
  return found;
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) files.push(path);
  }
  return files;
}

/** A relative specifier as TypeScript resolves it: the file itself, then .ts, .tsx, .d.ts (a generated declaration), index.ts, index.tsx. */
function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.d.ts`, join(base, 'index.ts'), join(base, 'index.tsx')]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

const project = (path: string) => relative(ROOT, path).split(sep).join('/');

function buildGraph(): { graph: Graph; unresolved: string[] } {
  const graph: Graph = new Map();
  const unresolved: string[] = [];
  for (const file of FOLDERS.flatMap((folder) => sourceFiles(join(ROOT, folder)))) {
    const targets = new Set<string>();
    for (const spec of specifiers(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue; // a package
      const target = resolveImport(file, spec);
      if (target) targets.add(project(target));
      else unresolved.push(`${project(file)} imports ${spec}`);
    }
    graph.set(project(file), [...targets].sort());
  }
  return { graph, unresolved };
}

/** Every circle, one per strongly connected component (Tarjan), each as a path that returns to its start. */
function circles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next++);
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node)!, low.get(to)!));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node)!, index.get(to)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) components.push(component);
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => cycleIn(graph, new Set(component)));
}

/** One circle through a component's first file (breadth first, so the shortest). */
function cycleIn(graph: Graph, component: Set<string>): string[] {
  const start = [...component].sort()[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!component.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(to)) {
        cameFrom.set(to, node);
        queue.push(to);
      }
    }
  }
  return [start, start];
}

interface Rule {
  /** files under this folder… */
  from: string;
  /** …import nothing under these */
  not: string[];
  /** …or only files under this folder, when set */
  only?: string;
  why: string;
}

const under = (path: string, folder: string) => path === folder || path.startsWith(`${folder}/`);

const RULES: Rule[] = [
  { from: 'spoke/model', not: [], only: 'spoke/model', why: 'the base layer: substrate-neutral types and errors' },
  { from: 'spoke', not: ['schema', 'server', 'federation', 'web', 'demo'], why: 'the kernel knows no GraphQL, no HTTP, no hub, no demo' },
  { from: 'schema', not: ['server', 'federation', 'web', 'demo'], why: 'the contract is served by server/ and routed by federation/, never the other way' },
  { from: 'federation', not: ['server', 'web', 'demo'], why: 'the hub is a Source the server is given' },
  { from: 'web', not: ['server', 'federation', 'demo'], why: 'the dashboard reads the API like any client' },
  { from: 'demo', not: [], only: 'demo', why: 'the demo writes transcripts as Claude Code would, knowing nothing of Loom' },
];

function breaches(graph: Graph): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    for (const rule of RULES) {
      if (!under(file, rule.from)) continue;
      for (const target of targets) {
        if (rule.not.some((folder) => under(target, folder)) || (rule.only && !under(target, rule.only))) {
          found.push(`${file} imports ${target} (${rule.from}/: ${rule.why})`);
        }
      }
    }
  }
  return found.sort();
}

describe('the import graph', () => {
  const { graph, unresolved } = buildGraph();

  it('reads every import of every file (a relative import that names no file is a parser or path mistake)', () => {
    expect(graph.size).toBeGreaterThan(100);
    expect(unresolved).toEqual([]);
  });

  it('has no circles, type-only imports included', () => {
    expect(circles(graph).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('points one way between layers', () => {
    expect(breaches(graph)).toEqual([]);
  });

  it('finds a circle and a breach when there is one (the check checks)', () => {
    const sample: Graph = new Map([
      ['spoke/model/a.ts', ['spoke/usage/b.ts']],
      ['spoke/usage/b.ts', ['spoke/model/a.ts', 'schema/c.ts']],
      ['schema/c.ts', []],
    ]);
    expect(circles(sample)).toEqual([['spoke/model/a.ts', 'spoke/usage/b.ts', 'spoke/model/a.ts']]);
    expect(breaches(sample)).toEqual([
      expect.stringMatching(/^spoke\/model\/a\.ts imports spoke\/usage\/b\.ts/),
      expect.stringMatching(/^spoke\/usage\/b\.ts imports schema\/c\.ts/),
    ]);
    expect(
      specifiers(
        [
          "import type { A } from './a';",
          'import {',
          '  b,',
          '  type C,',
          "} from '../b';",
          "export * from './c';",
          "export { d } from './d';",
          "import './e';",
          "const f = await import('./f');",
          "let g: import('./g').G;",
          "const h = require('../h.json');",
          '  "import { z } from \'zod\';",',
          "// import { i } from './i';",
        ].join('\n'),
      ),
    ).toEqual(['./a', '../b', './c', './d', './e', './f', './g', '../h.json']);
  });
});
