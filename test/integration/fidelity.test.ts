import { appendFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql, type ResultOf } from '../../web/src/lib/graphql';
import { FIXTURES, iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, parallelToolCalls, prompt, say, toolResult, toolUse } from '../helpers/records';
import { answeredCalls, keptPrompts } from '../helpers/transcript-truth';
import { until } from '../helpers/wait';

// Everything a transcript holds reaches the API: every typed prompt that was not rewound, every
// tool call's result, the history before a new chain and what a rewind took away. Held against
// the real fixtures (read with no Loom code, test/helpers/transcript-truth.ts) and against
// written transcripts appended line by line under a live subscription.

const PAGE = graphql(`query($s: ID!, $b: Int) { transcript(sessionId: $s, limit: 500, beforeSequence: $b) { hasOlder nextBeforeSequence
  entries { uuid sequence type subtype content { __typename ... on TextBlock { text } ... on ToolUseBlock { toolUseId }
  ... on ToolResultBlock { toolUseId toolName images { mediaType data } } } } } }`);
type Atom = ResultOf<typeof PAGE>['transcript']['entries'][number];
type Block = Atom['content'][number];

/** Every atom of a session's path, paging back from the newest (none for a file that holds no session). */
async function wholePath(kernel: TestKernel, id: string): Promise<Atom[]> {
  const pages: Atom[][] = [];
  let before: number | null = null;
  for (;;) {
    const { data }: { data: ResultOf<typeof PAGE> } = await kernel.gql(PAGE, { s: id, b: before });
    if (!data?.transcript) return [];
    pages.unshift(data.transcript.entries);
    if (!data.transcript.hasOlder) return pages.flat();
    before = data.transcript.nextBeforeSequence;
  }
}

/** The content blocks of one type in these atoms, in order. */
const blocks = <Type extends Block['__typename']>(atoms: Atom[], type: Type) =>
  atoms.flatMap((a) => a.content.filter((b): b is Extract<Block, { __typename: Type }> => b.__typename === type));
const norm = (text: string) => text.split(/\s+/).filter(Boolean).join(' ');

describe('the real fixtures, read through the API', () => {
  let kernel: TestKernel;
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES, { awakeLimit: 2 });
  });
  afterAll(() => kernel.close());

  const mainFiles = readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap(({ name: project }) =>
      readdirSync(join(FIXTURES, project))
        .filter((name) => name.endsWith('.jsonl') && !name.startsWith('agent-'))
        .map((name) => ({ project, key: name.slice(0, -'.jsonl'.length), file: join(FIXTURES, project, name) })),
    );

  it('reaches every typed prompt that was not rewound, in every file', async () => {
    let checked = 0;
    for (const { key, file } of mainFiles) {
      const prompts = keptPrompts(file);
      if (prompts.length === 0) continue;
      const texts = blocks(await wholePath(kernel, `test:${key}`), 'TextBlock').map((b) => norm(b.text));
      for (const p of prompts)
        expect(
          texts.some((t: string) => t.includes(norm(p).slice(0, 60))),
          `${key}: ${p.slice(0, 60)}`,
        ).toBe(true);
      checked += prompts.length;
    }
    expect(checked).toBe(64);
  });

  it('shows every tool call with its result, unless the file never answered it', async () => {
    let calls = 0;
    const unanswered: string[] = [];
    for (const { key, file } of mainFiles) {
      const atoms = await wholePath(kernel, `test:${key}`);
      const results = new Map(blocks(atoms, 'ToolResultBlock').map((b) => [b.toolUseId, b]));
      for (const use of blocks(atoms, 'ToolUseBlock')) {
        calls++;
        const result = results.get(use.toolUseId);
        if (!result) unanswered.push(use.toolUseId);
        else expect(result.toolName, use.toolUseId).not.toBeNull();
        if (!result) expect(answeredCalls(file).has(use.toolUseId), `${key}: ${use.toolUseId} has a result in its file`).toBe(false);
      }
    }
    expect(calls).toBeGreaterThan(1190);
    // d3ad4cdc's last line is a Bash call the session ended during: no file holds its result.
    expect(unanswered).toEqual(['toolu_012VXnBYGCQT1B47QH1zPGpC']);
  });

  it('keeps 71c9afe9 on its conversation, named after its first real prompt, with the bash note after it', async () => {
    const id = 'test:71c9afe9-d9cc-4583-86b3-e62ba682b83a';
    const { data } = await kernel.gql(graphql(`query($id: ID!) { session(id: $id) { name turns { trigger { promptLine } } } }`), { id });
    expect(data.session!.name).toMatch(/^Please have a look at this patch diff/);
    expect(data.session!.turns.map((t) => t.trigger?.promptLine)).toEqual([
      '/clear',
      expect.stringMatching(/^Please have a look/),
      '! uv run pytest test/test_project_display_name.py',
    ]);
  });

  it('keeps the rewound branch of 03eb5929 on the turn that replaced it', async () => {
    const { data } = await kernel.gql(
      graphql(`{ session(id: "test:03eb5929-52b3-4b13-ada3-b93ae35806b8") { turns {
      trigger { promptLine } rewoundBranches { firstPrompt atomCount atoms { sequence rewound } } } } }`),
    );
    const rewound = data.session!.turns.filter((t) => t.rewoundBranches.length > 0);
    expect(rewound).toHaveLength(1);
    const [branch] = rewound[0].rewoundBranches;
    expect(branch.firstPrompt).toMatch(/^I very much like this idea/);
    expect(branch.atoms.every((a) => a.sequence === 0 && a.rewound)).toBe(true);
    expect(branch.atomCount).toBe(branch.atoms.length);
  });
});

describe('a public 2.1.88 transcript with a compaction and a screenshot (test/fixtures/public-projects)', () => {
  const PUBLIC = join(import.meta.dirname, '..', 'fixtures', 'public-projects');
  const FILE = join(PUBLIC, 'c--Users-loganf-Documents-IDAHO-VAULT', '744827a2-a4c6-4a5b-9997-81d6e9384d8d.jsonl');
  const ID = 'test:744827a2-a4c6-4a5b-9997-81d6e9384d8d';
  let kernel: TestKernel;
  let atoms: Atom[];
  beforeAll(async () => {
    kernel = await startTestKernel(PUBLIC);
    atoms = await wholePath(kernel, ID);
  });
  afterAll(() => kernel.close());

  it('reaches every typed prompt, before the compaction and after it', () => {
    const texts = blocks(atoms, 'TextBlock').map((b) => norm(b.text));
    const prompts = keptPrompts(FILE);
    expect(prompts.length).toBeGreaterThan(10);
    for (const p of prompts)
      expect(
        texts.some((t: string) => t.includes(norm(p).slice(0, 60))),
        p.slice(0, 60),
      ).toBe(true);
    const boundary = atoms.findIndex((a) => a.subtype === 'compact_boundary');
    expect(boundary).toBeGreaterThan(100);
    expect(atoms[boundary - 1].uuid).toBe('868847a2-912a-4434-b761-e092e5a6cb7f');
  });

  it('pairs every tool call with its result, and keeps the JPEG a Read returned', () => {
    const results = new Map(blocks(atoms, 'ToolResultBlock').map((b) => [b.toolUseId, b]));
    const calls = blocks(atoms, 'ToolUseBlock');
    expect(calls.length).toBe(44);
    expect(calls.filter((c) => !results.get(c.toolUseId)?.toolName)).toEqual([]);
    const pictures = blocks(atoms, 'ToolResultBlock').flatMap((b) => b.images);
    expect(pictures.map((p) => [p.mediaType, p.data!.length])).toEqual([['image/jpeg', 29_340]]);
  });

  it('is named after its first real prompt, not the /model it opened with', async () => {
    const { data } = await kernel.gql(graphql(`query($id: ID!) { session(id: $id) { name } }`), { id: ID });
    expect(data.session!.name).toMatch(/^Logan has awakened you/);
  });
});

describe('written transcripts, appended line by line', () => {
  let root: string;
  let file: string;
  let kernel: TestKernel;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-fidelity-'));
    mkdirSync(join(root, '-home-dev-demo'));
    file = join(root, '-home-dev-demo', 'par.jsonl');
    writeFileSync(file, line(parallelToolCalls()[0]));
    kernel = await startTestKernel(root);
  });
  afterAll(async () => {
    await kernel.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('streams three parallel results to a subscriber exactly once each, in order, the screenshot with them', async () => {
    const STREAM = graphql(`subscription { sessionStream(sessionId: "test:par") { kind reset cursor generation atoms { uuid sequence
        content { __typename ... on ToolResultBlock { toolUseId toolName images { mediaType } } } } } }`);
    const frames: ResultOf<typeof STREAM>['sessionStream'][] = [];
    const iterator = iterate(kernel.ws(), STREAM);
    const reading = (async () => {
      for await (const result of iterator) frames.push(result.data!.sessionStream);
    })();
    await until(() => frames.length > 0, 'the snapshot');
    // the prompt is written already: the rest arrives line by line
    for (const record of parallelToolCalls().slice(1)) {
      appendFileSync(file, line(record));
      await new Promise((r) => setTimeout(r, 30));
    }
    const atoms = () => frames.flatMap((f) => f.atoms);
    await until(() => atoms().some((a) => a.uuid === 'a2'), 'the last line');
    await iterator.return?.();
    await reading;
    expect(atoms().map((a) => a.uuid)).toEqual(['p1', 'say', 'u1', 'u2', 'u3', 'r1', 'r2', 'r3', 'a2']);
    expect(atoms().map((a) => a.sequence)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(frames.filter((f) => f.reset)).toEqual([]);
    const results = atoms().flatMap((a) => a.content.filter((b) => b.__typename === 'ToolResultBlock'));
    expect(results.map((b) => [b.toolUseId, b.toolName, b.images.length])).toEqual([
      ['t1', 'Read', 0],
      ['t2', 'Read', 0],
      ['t3', 'mcp__browser__screenshot', 1],
    ]);
  });

  it('shows a new chain behind a divider, the chain before it still in transcript and turns', async () => {
    writeFileSync(
      join(root, '-home-dev-demo', 'plan.jsonl'),
      [
        prompt('q1', null, 'plan the migration'),
        assistant('b1', 'q1', [toolUse('plan', 'ExitPlanMode')], 'tool_use'),
        toolResult('s1', 'b1', 'plan', 'User approved the plan'),
        prompt('q2', null, 'Implement the following plan: migrate the store'),
        assistant('b2', 'q2', [say('Implemented.')], 'end_turn'),
      ]
        .map(line)
        .join(''),
    );
    const id = 'test:plan';
    await until(
      async () => (await kernel.gql(graphql(`query($id: ID!) { session(id: $id) { atomCount } }`), { id })).data.session?.atomCount === 6,
      'the plan session',
    );
    const atoms = await wholePath(kernel, id);
    expect(atoms.map((a) => [a.uuid, a.type, a.subtype])).toEqual([
      ['q1', 'USER', null],
      ['b1', 'ASSISTANT', null],
      ['s1', 'USER', null],
      ['new_chain-q2', 'SYSTEM', 'new_chain'],
      ['q2', 'USER', null],
      ['b2', 'ASSISTANT', null],
    ]);
    const { data } = await kernel.gql(graphql(`query($id: ID!) { session(id: $id) { name turns { trigger { uuid } ended } } }`), { id });
    expect(data.session!.turns).toEqual([
      { trigger: { uuid: 'q1' }, ended: true },
      { trigger: { uuid: 'q2' }, ended: true },
    ]);
  });
});
