import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoTree, startLiveAppends, writeDemoTree, writeSyntheticCorpus } from '../../demo';

/** A tool call in an assistant message. */
interface ToolUse {
  type: 'tool_use';
  id: string;
  name: string;
}

/** The answer to a tool call, in a user message. */
interface ToolResult {
  type: 'tool_result';
  tool_use_id: string;
}

/** A message's content block: a tool call, its result, or another (text, thinking). */
type Block = ToolUse | ToolResult | { type: string };

/**
 * A transcript line as the demo writes it, with the fields these checks read. `message` is read on
 * user and assistant lines only, its content as blocks; a prompt's content is text instead, which
 * toolResults, the one reader of a user line's content, checks for.
 */
interface Line {
  type: string;
  subtype?: string;
  uuid?: string;
  sessionId?: string;
  parentUuid?: string | null;
  logicalParentUuid?: string;
  timestamp?: string;
  requestId?: string;
  sourceToolAssistantUUID?: string;
  toolUseResult?: unknown;
  compactMetadata?: unknown;
  message: { id: string; stop_reason: string | null; content: Block[] };
}

const NOW = new Date('2026-03-01T12:00:00.000Z');

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'loom-demo-'));
}

async function jsonlFiles(root: string): Promise<string[]> {
  const names = await readdir(root, { recursive: true });
  return names
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(root, name))
    .sort();
}

/** Parses a JSONL file, failing on a line that is not JSON or a file that does not end in a newline. */
async function readLines(file: string): Promise<Line[]> {
  const text = await readFile(file, 'utf8');
  expect(text.endsWith('\n'), `${file} ends with a newline`).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line, i) => {
      try {
        return JSON.parse(line) as Line;
      } catch {
        throw new Error(`${file}:${i + 1} is not JSON: ${line.slice(0, 120)}`);
      }
    });
}

/** Every parentUuid names a uuid written earlier in the same file; null only where a chain starts. */
function expectChained(lines: Line[]): void {
  const seen = new Set<string>();
  let chained = 0;
  for (const line of lines) {
    if (!('parentUuid' in line)) continue;
    const startsChain = chained === 0 || line.subtype === 'compact_boundary';
    if (line.parentUuid === null) expect(startsChain, `null parent on ${line.uuid}`).toBe(true);
    else expect(seen.has(line.parentUuid!), `parent of ${line.uuid} written earlier`).toBe(true);
    seen.add(line.uuid!);
    chained += 1;
  }
}

const toolUses = (line: Line): ToolUse[] =>
  line.type === 'assistant' ? line.message.content.filter((block): block is ToolUse => block.type === 'tool_use') : [];

const toolResults = (line: Line): ToolResult[] =>
  line.type === 'user' && Array.isArray(line.message.content) ? line.message.content.filter((block): block is ToolResult => block.type === 'tool_result') : [];

describe('writeDemoTree', () => {
  let root: string;
  let tree: DemoTree;

  beforeAll(async () => {
    root = await tempDir();
    tree = await writeDemoTree(root, { seed: 42, now: NOW });
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes 6 to 8 sessions across 3 or 4 project folders named after their cwd', async () => {
    expect(tree.sessions.length).toBeGreaterThanOrEqual(6);
    expect(tree.sessions.length).toBeLessThanOrEqual(8);
    const projects = new Set(tree.sessions.map((s) => s.project));
    expect(projects.size).toBeGreaterThanOrEqual(3);
    expect(projects.size).toBeLessThanOrEqual(4);
    for (const session of tree.sessions) {
      expect(session.project).toBe(session.cwd.replaceAll('/', '-'));
      expect(relative(root, session.file)).toBe(join(session.project, `${session.sessionId}.jsonl`));
    }
  });

  it('writes only newline-terminated lines of valid JSON', async () => {
    const files = await jsonlFiles(root);
    expect(files.length).toBeGreaterThan(tree.sessions.length);
    for (const file of files) await readLines(file);
  });

  it('dates every record within the days before now, in ISO 8601 with milliseconds', async () => {
    for (const file of await jsonlFiles(root)) {
      for (const line of await readLines(file)) {
        if (line.timestamp === undefined) continue;
        expect(line.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        const t = Date.parse(line.timestamp);
        expect(t).toBeLessThan(NOW.getTime());
        expect(t).toBeGreaterThan(NOW.getTime() - 3 * 86_400_000);
      }
    }
  });

  it('chains every parentUuid in a main session file to a uuid written earlier in that file', async () => {
    for (const session of tree.sessions) {
      const lines = await readLines(session.file);
      expectChained(lines);
      expect(lines.findLast((line) => line.uuid !== undefined)?.uuid).toBe(session.lastUuid);
    }
  });

  it('points the compact boundary at the last uuid before it and follows it with the summary', async () => {
    const boundaries: Line[] = [];
    for (const session of tree.sessions) {
      const lines = await readLines(session.file);
      lines.forEach((line, i) => {
        if (line.subtype !== 'compact_boundary') return;
        boundaries.push(line);
        const earlier = lines.slice(0, i).filter((l) => l.uuid !== undefined);
        expect(line.parentUuid).toBeNull();
        expect(line.logicalParentUuid).toBe(earlier.at(-1)!.uuid);
        expect(line.compactMetadata).toEqual({ trigger: expect.any(String), preTokens: expect.any(Number) });
        expect(lines[i + 1]).toMatchObject({
          parentUuid: line.uuid,
          isCompactSummary: true,
          isVisibleInTranscriptOnly: true,
        });
      });
    }
    expect(boundaries).toHaveLength(1);
  });

  it('keeps the subagent file under <project>/<sessionId>/subagents/ with every record on the sidechain', async () => {
    const parents = tree.sessions.filter((s) => s.subagentFiles.length > 0);
    expect(parents).toHaveLength(1);
    const parent = parents[0]!;
    const file = parent.subagentFiles[0]!;
    expect(relative(root, file)).toMatch(new RegExp(`^${parent.project}/${parent.sessionId}/subagents/agent-[0-9a-f]{17}\\.jsonl$`));
    const agentId = /agent-([0-9a-f]{17})\.jsonl$/.exec(file)![1];
    const lines = await readLines(file);
    expect(lines[0]).toMatchObject({ parentUuid: null, type: 'user' });
    expectChained(lines);
    for (const line of lines) expect(line).toMatchObject({ isSidechain: true, agentId, sessionId: parent.sessionId });

    const main = await readLines(parent.file);
    const task = main.flatMap(toolUses).find((block) => block.name === 'Task');
    expect(task).toBeDefined();
    const report = main.flatMap(toolResults).find((block) => block.tool_use_id === task!.id);
    expect(JSON.stringify(report)).toContain(agentId);
  });

  it('leaves the question session waiting on an AskUserQuestion that has no tool_result', async () => {
    const waiting = tree.sessions.filter((s) => s.awaitsAnswer);
    expect(waiting).toHaveLength(1);
    const lines = await readLines(waiting[0]!.file);
    const lastAssistant = lines.findLastIndex((line) => line.type === 'assistant');
    const question = toolUses(lines[lastAssistant]!)[0];
    expect(question?.name).toBe('AskUserQuestion');
    expect(lines[lastAssistant]!.message.stop_reason).toBe('tool_use');
    expect(lines.slice(lastAssistant + 1).flatMap(toolResults)).toEqual([]);
  });

  it('answers every other tool_use with a tool_result naming the assistant line that made it', async () => {
    for (const session of tree.sessions) {
      const lines = await readLines(session.file);
      const callLine = new Map<string, string>();
      for (const line of lines) for (const use of toolUses(line)) callLine.set(use.id, line.uuid!);
      const answered = new Set<string>();
      for (const line of lines) {
        for (const result of toolResults(line)) {
          expect(callLine.has(result.tool_use_id)).toBe(true);
          expect(line.sourceToolAssistantUUID).toBe(callLine.get(result.tool_use_id));
          expect(line.toolUseResult).toBeDefined();
          answered.add(result.tool_use_id);
        }
      }
      expect(callLine.size - answered.size).toBe(session.awaitsAnswer ? 1 : 0);
    }
  });

  it('writes an API message as one line per block, sharing ids, with the stop reason on the last', async () => {
    let multiBlockMessages = 0;
    for (const session of tree.sessions) {
      const byMessage = new Map<string, Line[]>();
      for (const line of await readLines(session.file)) {
        if (line.type !== 'assistant') continue;
        expect(line.message.content).toHaveLength(1);
        expect(line.message.id).toMatch(/^msg_01/);
        expect(line.requestId).toMatch(/^req_/);
        byMessage.set(line.message.id, [...(byMessage.get(line.message.id) ?? []), line]);
      }
      for (const lines of byMessage.values()) {
        if (lines.length > 1) multiBlockMessages += 1;
        expect(new Set(lines.map((l) => l.requestId)).size).toBe(1);
        expect(lines.slice(0, -1).every((l) => l.message.stop_reason === null)).toBe(true);
        expect(['tool_use', 'end_turn']).toContain(lines.at(-1)!.message.stop_reason);
      }
    }
    expect(multiBlockMessages).toBeGreaterThan(5);
  });

  it('ends finished turns with an end_turn reply followed by a turn_duration record', async () => {
    for (const session of tree.sessions.filter((s) => !s.awaitsAnswer)) {
      const lines = await readLines(session.file);
      const chained = lines.filter((line) => line.uuid !== undefined);
      expect(chained.at(-1)).toMatchObject({ type: 'system', subtype: 'turn_duration' });
      const lastReply = chained.findLast((line) => line.type === 'assistant')!;
      expect(lastReply.message.stop_reason).toBe('end_turn');
      expect(lastReply.message.content[0].type).toBe('text');
    }
  });

  it('includes thinking, progress, file-history snapshots and a custom title', async () => {
    const all = (await Promise.all(tree.sessions.map((s) => readLines(s.file)))).flat();
    const kinds = new Set(all.map((line) => (line.type === 'assistant' ? line.message.content[0].type : line.type)));
    for (const kind of ['thinking', 'text', 'tool_use', 'progress', 'file-history-snapshot', 'custom-title', 'system']) {
      expect(kinds).toContain(kind);
    }
    const tools = new Set(all.flatMap(toolUses).map((block) => block.name));
    for (const tool of ['Read', 'Edit', 'Bash', 'Grep', 'TodoWrite', 'Task', 'AskUserQuestion']) {
      expect(tools).toContain(tool);
    }
  });

  it('writes the same tree for the same seed and time', async () => {
    const again = await tempDir();
    try {
      const second = await writeDemoTree(again, { seed: 42, now: NOW });
      expect(second.sessions.map((s) => s.sessionId)).toEqual(tree.sessions.map((s) => s.sessionId));
      expect(await readFile(second.sessions[0]!.file, 'utf8')).toBe(await readFile(tree.sessions[0]!.file, 'utf8'));
    } finally {
      await rm(again, { recursive: true, force: true });
    }
  });
});

describe('startLiveAppends', () => {
  it('grows live sessions by whole chained lines and stops growing once stopped', async () => {
    const root = await tempDir();
    try {
      const tree = await writeDemoTree(root, { seed: 3 });
      const live = tree.sessions.filter((s) => s.live);
      expect(live.length).toBeGreaterThanOrEqual(2);
      expect(live.length).toBeLessThanOrEqual(3);
      const sizeOf = async () => Promise.all(live.map(async (s) => (await stat(s.file)).size));
      const before = await sizeOf();

      const appends = startLiveAppends(tree, { intervalMs: 20 });
      const deadline = Date.now() + 4_000;
      let lineCount = 0;
      while (Date.now() < deadline && lineCount < 15) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        lineCount = (await Promise.all(live.map((s) => readLines(s.file)))).flat().length;
      }
      await appends.stop();

      const after = await sizeOf();
      expect(after.some((size, i) => size > before[i]!)).toBe(true);
      for (const session of live) {
        const lines = await readLines(session.file);
        expectChained(lines);
        expect(lines.findLast((line) => line.uuid !== undefined)?.uuid).toBe(session.lastUuid);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await sizeOf()).toEqual(after);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });

  it('keeps quiet when the tree is removed underneath it', async () => {
    const root = await tempDir();
    const tree = await writeDemoTree(root);
    const appends = startLiveAppends(tree, { intervalMs: 5 });
    await rm(root, { recursive: true, force: true });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await expect(appends.stop()).resolves.toBeUndefined();
  });
});

describe('writeSyntheticCorpus', () => {
  const totalBytes = 5 * 1024 * 1024;
  let root: string;
  let stats: { files: number; bytes: number; lines: number };

  beforeAll(async () => {
    root = await tempDir();
    stats = await writeSyntheticCorpus(root, { totalBytes, files: 40, seed: 9 });
  });

  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('writes within 20% of the requested size and reports what it wrote', async () => {
    const files = await jsonlFiles(root);
    const sizes = await Promise.all(files.map(async (file) => (await stat(file)).size));
    const bytes = sizes.reduce((a, b) => a + b, 0);
    expect(files).toHaveLength(40);
    expect(stats.files).toBe(40);
    expect(stats.bytes).toBe(bytes);
    expect(Math.abs(bytes - totalBytes) / totalBytes).toBeLessThan(0.2);
  });

  it('writes lines that all parse, chain like a real session and answer their tool calls', async () => {
    let lines = 0;
    let progress = 0;
    for (const file of await jsonlFiles(root)) {
      const records = await readLines(file);
      lines += records.length;
      progress += records.filter((line) => line.type === 'progress').length;
      expectChained(records);
      const calls = new Set(records.flatMap(toolUses).map((block) => block.id));
      for (const result of records.flatMap(toolResults)) expect(calls.has(result.tool_use_id)).toBe(true);
      const sessionIds = new Set(records.filter((r) => r.sessionId !== undefined).map((r) => r.sessionId));
      expect([...sessionIds]).toEqual([file.slice(-42, -6)]);
    }
    expect(lines).toBe(stats.lines);
    expect(progress / lines).toBeGreaterThan(0.3);
    expect(progress / lines).toBeLessThan(0.55);
  });
});
