import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';

const run = promisify(execFile);
// ccusage's own native build for this platform, an optional dependency: the registry this project
// installs from carries only the Linux x64 build, so the `ccusage` wrapper package (which lists
// every platform's) would break `npm ci`.
const CCUSAGE = join(import.meta.dirname, '..', '..', 'node_modules', '@ccusage', 'ccusage-linux-x64', 'bin', 'ccusage');

/** A day of `ccusage daily --json`: the fields compared here. */
interface CcusageDay {
  period: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
}

describe('usage over the real fixtures', () => {
  let kernel: TestKernel;
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES);
  });
  afterAll(() => kernel.close());

  it.runIf(existsSync(CCUSAGE))('matches ccusage 20 day by day: the same tokens and the cost within 1%', async () => {
    // ccusage wants a Claude config dir holding projects/: give it one that points at the fixtures.
    chmodSync(CCUSAGE, 0o755); // npm unpacks it without the execute bit; ccusage's wrapper sets it too
    const config = mkdtempSync(join(tmpdir(), 'loom-ccusage-'));
    symlinkSync(FIXTURES, join(config, 'projects'));
    const { stdout } = await run(CCUSAGE, ['daily', '--offline', '--json', '--timezone', 'UTC'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: config, TZ: 'UTC' },
      maxBuffer: 16 << 20,
    });
    rmSync(config, { recursive: true, force: true });
    const theirs = (JSON.parse(stdout) as { daily: CcusageDay[] }).daily;
    const { data } = await kernel.gql(graphql(`{ usage(groupBy: DAY) { key inputTokens outputTokens cacheCreationTokens cacheReadTokens cost costStatus } }`));
    const ours = new Map(data.usage.map((r) => [r.key, r]));
    expect([...ours.keys()].sort()).toEqual(theirs.map((d) => d.period).sort());
    for (const day of theirs) {
      const row = ours.get(day.period)!;
      expect({ day: day.period, input: row.inputTokens, output: row.outputTokens, write: row.cacheCreationTokens, read: row.cacheReadTokens }).toEqual({
        day: day.period,
        input: day.inputTokens,
        output: day.outputTokens,
        write: day.cacheCreationTokens,
        read: day.cacheReadTokens,
      });
      expect(row.costStatus).toBe('ESTIMATED');
      expect(Math.abs(row.cost! - day.totalCost) / day.totalCost, day.period).toBeLessThan(0.01);
    }
  });

  it('groups by model, session and host, with subagents and their parents both counted', async () => {
    const byModel = (await kernel.gql(graphql(`{ usage(groupBy: MODEL) { key outputTokens } }`))).data.usage;
    expect(byModel.map((r) => r.key)).toContain('claude-opus-4-6');
    const byHost = (await kernel.gql(graphql(`{ usage(groupBy: HOST) { key outputTokens } }`))).data.usage;
    const total = byModel.reduce((n, r) => n + r.outputTokens, 0);
    expect(byHost).toEqual([{ key: 'test', outputTokens: total }]);
    const bySession = (await kernel.gql(graphql(`{ usage(groupBy: SESSION) { key } }`))).data.usage.map((r) => r.key);
    expect(bySession).toContain('test:agent-a2898e3');
    const { data } = await kernel.gql(
      graphql(`{ session(id: "test:4d5611e5-241a-462a-8d15-5122611a9569") {
      own: usage { outputTokens } all: usage(includeSubagents: true) { outputTokens } subagents { usage { outputTokens } } } }`),
    );
    expect(data.session!.all.outputTokens).toBeGreaterThan(data.session!.own.outputTokens);
  });

  it('counts days in the time zone asked for, filters by time, and refuses a zone it does not know', async () => {
    const utc = (await kernel.gql(graphql(`{ usage(groupBy: DAY, since: "2026-02-11T00:00:00Z", until: "2026-02-13T00:00:00Z") { key } }`))).data.usage;
    expect(utc.map((r) => r.key)).toEqual(['2026-02-11', '2026-02-12']);
    const tokyo = (
      await kernel.gql(graphql(`{ usage(groupBy: DAY, since: "2026-02-11T00:00:00Z", until: "2026-02-13T00:00:00Z", timeZone: "Asia/Tokyo") { key } }`))
    ).data.usage;
    expect(tokyo.map((r) => r.key)).toContain('2026-02-13');
    const bad = await kernel.gql(graphql(`{ usage(timeZone: "Mars/Olympus") { key } }`));
    expect(bad.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringMatching(/IANA time zone/) });
    const badSince = await kernel.gql(graphql(`{ usage(since: "yesterday") { key } }`));
    expect(badSince.errors![0].extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('usage of one session', () => {
  let root: string;
  let kernel: TestKernel;
  const usage = (input: number, output: number, extra: object = {}) => ({
    input_tokens: input,
    output_tokens: output,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    ...extra,
  });
  const line2 = (uuid: string, parent: string, content: unknown[], stop: string | null, model: string, id: string, u: object) => {
    const r = assistant(uuid, parent, content, stop, id);
    return line({ ...r, message: { ...r.message, model, usage: u } });
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-usage-'));
    mkdirSync(join(root, '-home-dev-demo'));
    writeFileSync(
      join(root, '-home-dev-demo', 'u1.jsonl'),
      line(prompt('p1', null, 'go')) +
        // One API message written as two lines; the first copy carries a partial output count.
        line2('a1', 'p1', [say('thinking…')], null, 'claude-opus-4-6', 'm1', usage(10, 1)) +
        line2(
          'a2',
          'a1',
          [say('done')],
          'end_turn',
          'claude-opus-4-6',
          'm1',
          usage(10, 500, { cache_creation_input_tokens: 1000, cache_creation: { ephemeral_5m_input_tokens: 400, ephemeral_1h_input_tokens: 600 } }),
        ) +
        line(prompt('p2', 'a2', 'and on a model nobody priced')) +
        line2('a3', 'p2', [say('ok')], 'end_turn', 'claude-imaginary-9', 'm2', usage(5, 5)),
    );
    kernel = await startTestKernel(root);
  });
  afterAll(async () => {
    await kernel.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('counts an API message written as several lines once, as its largest copy, priced by cache lifetime', async () => {
    const { data } = await kernel.gql(
      graphql(`{ session(id: "test:u1") { turns { usage { inputTokens outputTokens cacheCreationTokens cacheCreation5mTokens cacheCreation1hTokens cost costStatus costSource }
      atoms { uuid usage { outputTokens } } } } }`),
    );
    const [first, second] = data.session!.turns;
    expect(first.usage).toMatchObject({
      inputTokens: 10,
      outputTokens: 500,
      cacheCreationTokens: 1000,
      cacheCreation5mTokens: 400,
      cacheCreation1hTokens: 600,
      costStatus: 'ESTIMATED',
      costSource: 'CATALOG',
    });
    // opus-4-6: input $5, output $25, 5m writes $6.25, 1h writes $10 per million tokens.
    expect(first.usage.cost).toBeCloseTo((10 * 5 + 500 * 25 + 400 * 6.25 + 600 * 10) / 1e6, 12);
    expect(first.atoms.map((a) => a.usage?.outputTokens ?? null)).toEqual([null, 1, 500]);
    expect(second.usage).toMatchObject({ inputTokens: 5, outputTokens: 5, cost: null, costStatus: 'UNKNOWN', costSource: 'NONE' });
  });

  it('keeps the tokens of a model with no price but gives the whole no cost', async () => {
    const { data } = await kernel.gql(graphql(`{ session(id: "test:u1") { usage { inputTokens outputTokens cost costStatus } } }`));
    expect(data.session!.usage).toEqual({ inputTokens: 15, outputTokens: 505, cost: null, costStatus: 'UNKNOWN' });
  });
});
