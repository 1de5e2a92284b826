import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';

// The real Claude Code transcripts in ../shared/fixtures, indexed by a real kernel and read back
// over GraphQL. Only two sessions stay awake, so most answers come from sessions that fell
// asleep after indexing and were read again on demand.

let kernel: TestKernel;
beforeAll(async () => {
  kernel = await startTestKernel(FIXTURES, { awakeLimit: 2 });
});
afterAll(() => kernel.close());

const SPOTTER = '-home-USER-projects-spotter-worktrees';
const COMPACTED = ['4d5611e5-241a-462a-8d15-5122611a9569', '258c7280-ae70-4798-800f-63464d01a85d', 'ae4a77f8-aedd-4bc1-888f-c94edc91af04'];

const SESSION_ATOMS =
  graphql(`query($id: ID!) { session(id: $id) { id atomCount turns { index trigger { uuid } atoms { uuid sequence type subtype author { kind }
  content { __typename ... on ToolUseBlock { toolUseId name } ... on ToolResultBlock { toolUseId toolName } } } segments { input { uuid } } } } }`);

async function allSessionIds(): Promise<string[]> {
  const { data } = await kernel.gql(graphql(`{ sessions(first: 100) { nodes { id subagents { id } } } }`));
  return data.sessions.nodes.flatMap((s) => [s.id, ...s.subagents.map((c) => c.id)]);
}

/** The fields of a transcript line that firstHumanPrompt reads. */
interface Line {
  type?: string;
  uuid: string;
  isMeta?: boolean;
  isSidechain?: boolean;
  message?: { content?: string | { type?: string; text?: string }[] };
}

/** The first line of a file that a person typed: a user line with text, not harness metadata. */
function firstHumanPrompt(file: string): string {
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    const r = JSON.parse(line) as Line;
    if (r.type !== 'user' || r.isMeta || r.isSidechain) continue;
    const content = r.message?.content;
    const text = typeof content === 'string' ? content : content?.find((b) => b.type === 'text')?.text;
    if (text && !text.startsWith('<')) return r.uuid;
  }
  throw new Error(`no human prompt in ${file}`);
}

describe('indexing the real fixtures', () => {
  it('reads every fixture file, with zero parse errors', async () => {
    const { data } = await kernel.gql(
      graphql(`{ kernel { indexing { filesDone filesTotal bytesDone bytesTotal done } }
      sessions(first: 100) { nodes { parseErrors { reason } subagents { parseErrors { reason } } } } }`),
    );
    expect(data.kernel.indexing).toMatchObject({ filesDone: 36, filesTotal: 36, done: true });
    expect(data.kernel.indexing.bytesDone).toBe(data.kernel.indexing.bytesTotal);
    const errors = data.sessions.nodes.flatMap((s) => [...s.parseErrors, ...s.subagents.flatMap((c) => c.parseErrors)]);
    expect(errors).toEqual([]);
  });

  it('shows no tab for a 0-byte file, a summary-only file or a snapshot-only file', async () => {
    const ids = await allSessionIds();
    for (const key of [
      '6323a48e-3984-42eb-8790-2f7811368ab7',
      '4e27c414-a885-46a0-b5c8-d58e1417377d',
      'ff71dbed-a4f2-4284-a4fc-fe2fb90de929',
      'a95fea4a-b88a-4e49-ac07-4cc323d8700c',
    ]) {
      expect(ids).not.toContain(`test:${key}`);
      const { data } = await kernel.gql(graphql(`query($id: ID!) { session(id: $id) { id } }`), { id: `test:${key}` });
      expect(data.session).toBeNull();
    }
  });

  it('attaches subagents in all three layouts to their parent, never as top-level sessions', async () => {
    const { data } = await kernel.gql(graphql(`{ sessions(first: 100) { nodes { key subagents { key parent { key } } } } }`));
    const top = new Map<string, string[]>(data.sessions.nodes.map((s) => [s.key, s.subagents.map((c) => c.key).sort()]));
    expect([...top.keys()].filter((k) => k.startsWith('agent-') || k.startsWith('sidechain-'))).toEqual([]);
    // <session>/subagents/agent-*.jsonl
    expect(top.get('4d5611e5-241a-462a-8d15-5122611a9569')).toEqual(['agent-a2898e3', 'agent-acompact-e1f845']);
    expect(top.get('ef958aa1-0e93-49f0-bb71-150f63befcd1')).toEqual(['agent-a4ca7529859c158c2']);
    // agent-*.jsonl beside the session, parent named by sessionId inside
    expect(top.get('7acd37a8-2745-4b58-a8a9-46164b22ad9e')).toEqual(['agent-3430b97e']);
    expect(top.get('cb2e607c-c758-415a-8b45-c49e4631906a')).toEqual(['agent-ea02459f']);
    // isSidechain lines inside the main file (1.0.x): five Task runs
    expect(top.get('fe5e1c67-53e7-4862-81ae-d0e013e3270b')).toHaveLength(5);
    const child = data.sessions.nodes.find((s) => s.key === 'fe5e1c67-53e7-4862-81ae-d0e013e3270b')!.subagents[0];
    expect(child.parent!.key).toBe('fe5e1c67-53e7-4862-81ae-d0e013e3270b');
  });

  it('keeps the history before a compaction on the active path, whichever way the boundary links back', async () => {
    for (const key of COMPACTED) {
      const { data } = await kernel.gql(SESSION_ATOMS, { id: `test:${key}` });
      const atoms = data.session!.turns.flatMap((t) => t.atoms);
      const uuids = atoms.map((a) => a.uuid);
      const first = firstHumanPrompt(join(FIXTURES, SPOTTER, `${key}.jsonl`));
      const boundary = atoms.findIndex((a) => a.subtype === 'compact_boundary');
      expect(uuids.indexOf(first)).toBeGreaterThanOrEqual(0);
      expect(boundary).toBeGreaterThan(uuids.indexOf(first));
      expect(atoms.map((a) => a.sequence)).toEqual(atoms.map((_: unknown, i: number) => i + 1));
    }
  });

  it('pairs every tool result with a tool call earlier on the same path', async () => {
    let pairs = 0;
    for (const id of await allSessionIds()) {
      const { data } = await kernel.gql(SESSION_ATOMS, { id });
      const seen = new Map<string, string>();
      for (const atom of data.session!.turns.flatMap((t) => t.atoms)) {
        for (const block of atom.content) {
          if (block.__typename === 'ToolUseBlock') seen.set(block.toolUseId, block.name);
          if (block.__typename === 'ToolResultBlock') {
            expect(seen.get(block.toolUseId), `${id}: result ${block.toolUseId}`).toBeDefined();
            expect(block.toolName).toBe(seen.get(block.toolUseId));
            pairs++;
          }
        }
      }
    }
    expect(pairs).toBeGreaterThan(1000);
  });

  it("links a Task call's result to the subagent it ran, in both file layouts, and to none whose file is gone", async () => {
    const subagentsOf = async (key: string) => {
      const { data } = await kernel.gql(
        graphql(`query TaskLinks($id: ID!) { session(id: $id) { turns { atoms { content { __typename
          ... on ToolResultBlock { toolName subagent { id parent { id } } } } } } } }`),
        { id: `test:${key}` },
      );
      return data
        .session!.turns.flatMap((t) => t.atoms.flatMap((a) => a.content))
        .flatMap((b) => (b.__typename === 'ToolResultBlock' && (b.toolName === 'Task' || b.toolName === 'Agent') ? [b.subagent] : []));
    };
    // <session>/subagents/agent-*.jsonl: six Agent calls, one subagent file kept (alice's first round)
    const teammates = await subagentsOf('ef958aa1-0e93-49f0-bb71-150f63befcd1');
    expect(teammates).toHaveLength(6);
    expect(teammates.filter((s) => s !== null)).toEqual([{ id: 'test:agent-a4ca7529859c158c2', parent: { id: 'test:ef958aa1-0e93-49f0-bb71-150f63befcd1' } }]);
    // agent-*.jsonl beside the session (2.0.x)
    expect(await subagentsOf('cb2e607c-c758-415a-8b45-c49e4631906a')).toEqual([
      { id: 'test:agent-ea02459f', parent: { id: 'test:cb2e607c-c758-415a-8b45-c49e4631906a' } },
    ]);
  });

  it('keeps harness notices that arrive mid-turn inside the turn, never as triggers', async () => {
    const { data } = await kernel.gql(
      graphql(
        `query($id: ID!) { session(id: $id) { turns { trigger { uuid author { kind } } atoms { uuid author { kind } content { ... on TextBlock { text } } } } } }`,
      ),
      { id: 'test:258c7280-ae70-4798-800f-63464d01a85d' },
    );
    const notices = data.session!.turns.flatMap((t) =>
      t.atoms.filter((a) => a.content.some((b) => 'text' in b && b.text.startsWith('<task-notification>'))).map((a) => ({ a, t })),
    );
    expect(notices.length).toBeGreaterThan(0);
    for (const { a, t } of notices) {
      expect(a.author!.kind).toBe('SYSTEM');
      expect(t.trigger?.uuid).not.toBe(a.uuid);
    }
    for (const turn of data.session!.turns) if (turn.trigger) expect(['HUMAN', 'SDK', 'PEER']).toContain(turn.trigger.author!.kind);
  });

  it('names a session from the summary whose leaf lies furthest along its path, even one written in another file', async () => {
    // ba79134d is summarised twice, from d3ad4cdc (leaf: its last line) and ff71dbed (leaf: line 54).
    const { data } = await kernel.gql(
      graphql(`{ a: session(id: "test:1af7fc5e-8455-4414-9ccd-011d40f70b2a") { name } b: session(id: "test:ba79134d-b6e9-4867-af0c-6941038c9e4b") { name } }`),
    );
    expect(data.a!.name).toBe('Empty Repo Setup: CLAUDE.md Foundation Created');
    expect(data.b!.name).toBe('AI Music: Embedding Words into Sound');
  });
});
