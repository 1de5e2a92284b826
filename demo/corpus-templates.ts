// Line templates for the benchmark corpus. Each template is a real record from the session
// generator, serialised once and cut wherever a per-line value goes (uuids, times, ids, cwd),
// so the corpus writer only copies bytes and fills in those values.

import { type Rng, uuid } from './random';
import { CLAUDE_CODE_VERSION, type SessionContext, type TranscriptRecord } from './records';
import { playReply, playStep } from './sessions';
import { demoProjects } from './story/projects';
import type { Step } from './story/types';
import { type HookSetup, Transcript } from './transcript';

/** Values a template leaves open. */
export const SlotKind = {
  /** the uuid of a chained line, relative to the episode's first (-1: the line before it), quoted */
  lineUuid: 0,
  /** the line's timestamp */
  time: 1,
  /** the run of per-session fields every chained line carries, see sessionFieldsJson */
  sessionFields: 2,
  /** the cwd where it appears elsewhere, as in file paths */
  cwd: 3,
  /** an id minted once per episode: message, request, tool use or hook run */
  id: 4,
} as const;

/** How those per-session fields serialise, in the order records.ts writes them. */
export function sessionFieldsJson(ctx: SessionContext): string {
  const { cwd, sessionId, version, gitBranch } = ctx;
  return JSON.stringify({ userType: 'external', cwd, sessionId, version, gitBranch }).slice(1, -1);
}

export interface Slot {
  kind: number;
  /** lineUuid: offset; id: index into the episode's ids */
  arg: number;
}

export const IdFamily = { message: 0, request: 1, toolUse: 2, uuid: 3 } as const;

export interface LineTemplate {
  /** text around the slots: statics[0] slots[0] statics[1] … slots[n-1] statics[n] */
  statics: Buffer[];
  slots: Slot[];
  staticBytes: number;
  chained: boolean;
}

/** Lines that belong together: a prompt, one API response with its tool calls, a turn's end. */
export interface Episode {
  lines: LineTemplate[];
  /** the family of each id the episode mints */
  idFamilies: number[];
  chainedLines: number;
  /** approximate size once written */
  bytes: number;
}

export interface EpisodePool {
  sessionStart: Episode;
  prompts: Episode[];
  /** API responses with tool calls of everyday size */
  rounds: Episode[];
  /** responses whose tool result runs from ~5 KB to ~50 KB */
  largeRounds: Episode[];
  /** responses whose tool result line is about 1 MB */
  hugeRounds: Episode[];
  replies: Episode[];
}

/** Two PreToolUse hooks and one PostToolUse hook per call: about 40% of lines are progress records. */
export const CORPUS_HOOKS: HookSetup = {
  sessionStart: ['~/.claude/hooks/session-banner.sh', '~/.claude/hooks/load-env.sh'],
  preToolUse: ['~/.claude/hooks/guard-paths.sh', '~/.claude/hooks/audit-log.sh'],
  postToolUse: ['~/.claude/hooks/format-changed.sh'],
  stop: ['~/.claude/hooks/notify-desktop.sh', '~/.claude/hooks/record-usage.sh'],
};

const TYPICAL_SLOT_BYTES = 32;
const TEMPLATE_EPOCH = Date.UTC(2026, 0, 5, 9, 0, 0);

export function buildEpisodePool(rng: Rng): EpisodePool {
  const pool: EpisodePool = {
    sessionStart: undefined!,
    prompts: [],
    rounds: [],
    largeRounds: [],
    hugeRounds: [],
    replies: [],
  };
  const codeLines = demoProjects.flatMap((project) => project.facts.sourceLines.filter((line) => line.trim() !== ''));

  for (const project of demoProjects) {
    for (const topic of project.topics) {
      const ctx: SessionContext = {
        sessionId: uuid(rng),
        cwd: project.cwd,
        gitBranch: topic.gitBranch,
        version: CLAUDE_CODE_VERSION,
      };
      const t = new Transcript(ctx, rng, project.model, { startMs: TEMPLATE_EPOCH, hooks: CORPUS_HOOKS });
      // Every transcript starts with its hooks so later episodes chain to something; the first
      // one is kept, its parentUuid null intact, to open each corpus file.
      const sessionStart = capture(t, () => t.sessionStart());
      pool.sessionStart ??= sessionStart;
      for (const turn of topic.turns) {
        let promptAt = '';
        pool.prompts.push(capture(t, () => (promptAt = t.prompt(turn.prompt))));
        turn.steps.forEach((step, i) => {
          pool.rounds.push(capture(t, () => playStep(t, step, i === 0 ? turn.thinking : undefined)));
        });
        pool.replies.push(capture(t, () => playReply(t, turn.reply, promptAt)));
      }
      // Oversized results get the same framing as everyday ones: reuse this transcript.
      for (let i = 0; i < 6; i++) {
        const resultBytes = Math.round(2_500 * 10 ** rng.next()); // 2.5-25 KB of text, twice per line
        pool.largeRounds.push(capture(t, () => playStep(t, bigRead(rng, codeLines, resultBytes))));
      }
      if (pool.hugeRounds.length < 2) {
        pool.hugeRounds.push(capture(t, () => playStep(t, bigBuildLog(rng, codeLines, 500_000))));
      }
    }
  }
  return pool;
}

/** Runs part of a script and turns the records it added into an episode template. */
function capture(t: Transcript, play: () => void): Episode {
  const from = t.records.length;
  const leafBefore = t.leaf;
  play();
  return templatize(t.records.slice(from), leafBefore, t.ctx);
}

/** Quoted uuids, timestamps, and message, request and tool-use ids. */
const ID_PATTERN = new RegExp(
  [
    '"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"',
    '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z',
    'msg_01[0-9A-Za-z]{22}',
    'req_011C[0-9A-Za-z]{20}',
    'toolu_01[0-9A-Za-z]{22}',
  ].join('|'),
);

function templatize(records: readonly TranscriptRecord[], leafBefore: string | null, ctx: SessionContext): Episode {
  const chainIndex = new Map<string, number>();
  for (const record of records) if (record.uuid !== undefined) chainIndex.set(record.uuid, chainIndex.size);
  if (leafBefore !== null) chainIndex.set(leafBefore, -1);
  const idIndex = new Map<string, number>();
  const idFamilies: number[] = [];
  const sessionFields = sessionFieldsJson(ctx);
  const escapedCwd = JSON.stringify(ctx.cwd).slice(1, -1);
  // Alternatives are tried in order: the session fields before the cwd inside them.
  const pattern = new RegExp(`${escapeRegExp(sessionFields)}|${ID_PATTERN.source}|${escapeRegExp(escapedCwd)}`, 'g');

  const slotFor = (token: string): Slot => {
    if (token === sessionFields) return { kind: SlotKind.sessionFields, arg: 0 };
    if (token === escapedCwd) return { kind: SlotKind.cwd, arg: 0 };
    if (token.startsWith('"')) {
      const offset = chainIndex.get(token.slice(1, -1));
      if (offset !== undefined) return { kind: SlotKind.lineUuid, arg: offset };
    } else if (/^\d/.test(token)) {
      return { kind: SlotKind.time, arg: 0 };
    }
    let index = idIndex.get(token);
    if (index === undefined) {
      index = idFamilies.length;
      idIndex.set(token, index);
      idFamilies.push(idFamilyOf(token));
    }
    return { kind: SlotKind.id, arg: index };
  };

  const lines = records.map((record): LineTemplate => {
    const json = JSON.stringify(record);
    const statics: Buffer[] = [];
    const slots: Slot[] = [];
    let last = 0;
    for (const match of json.matchAll(pattern)) {
      statics.push(Buffer.from(json.slice(last, match.index), 'utf8'));
      slots.push(slotFor(match[0]));
      last = match.index + match[0].length;
    }
    statics.push(Buffer.from(json.slice(last), 'utf8'));
    const staticBytes = statics.reduce((sum, part) => sum + part.length, 0);
    return { statics, slots, staticBytes, chained: record.uuid !== undefined };
  });

  const bytes = lines.reduce((sum, line) => sum + line.staticBytes + line.slots.length * TYPICAL_SLOT_BYTES + 1, 0);
  return { lines, idFamilies, chainedLines: lines.filter((line) => line.chained).length, bytes };
}

function idFamilyOf(token: string): number {
  if (token.startsWith('msg_')) return IdFamily.message;
  if (token.startsWith('req_')) return IdFamily.request;
  if (token.startsWith('toolu_')) return IdFamily.toolUse;
  return IdFamily.uuid;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A Read of a long source file, about `bytes` of text. */
function bigRead(rng: Rng, codeLines: readonly string[], bytes: number): Step {
  const lines: string[] = [];
  for (let size = 0; size < bytes; ) {
    const line = rng.pick(codeLines);
    lines.push(line);
    size += line.length + 8;
  }
  return { calls: [{ tool: 'Read', file: `src/generated/schema-${rng.int(1, 99)}.ts`, lines }] };
}

/** A verbose build whose whole log comes back as the tool result, about `bytes` of text. */
function bigBuildLog(rng: Rng, codeLines: readonly string[], bytes: number): Step {
  const log: string[] = [];
  for (let size = 0, n = 1; size < bytes; n++) {
    const line = `[build ${String(n).padStart(5, '0')}] ${rng.int(1, 900)}ms  ${rng.pick(codeLines).trim()}`;
    log.push(line);
    size += line.length + 1;
  }
  return {
    text: 'Running the full build with verbose output to see where the time goes.',
    calls: [{ tool: 'Bash', command: 'npm run build -- --verbose', description: 'Verbose build', output: log.join('\n') }],
  };
}
