// A transcript being written: it keeps the parentUuid chain, a clock, and a rough count of
// context tokens, so the records it builds link up and report believable usage.

import { messageId, type Rng, requestId, uuid } from './random';
import {
  type ApiMessage,
  type AssistantBlock,
  agentProgress,
  assistantLine,
  compactBoundary,
  compactSummary,
  fileHistorySnapshot,
  type HookRun,
  hookProgress,
  type Link,
  type SessionContext,
  type StopReason,
  stopHookFeedback,
  stopHookSummary,
  type ToolOutcome,
  type TranscriptRecord,
  toolResult,
  turnDuration,
  userPrompt,
} from './records';

/** Hook commands the imaginary user has configured, by event. */
export interface HookSetup {
  sessionStart: readonly string[];
  preToolUse: readonly string[];
  postToolUse: readonly string[];
  stop: readonly string[];
}

const DEMO_HOOKS: HookSetup = {
  sessionStart: ['~/.claude/hooks/session-banner.sh'],
  preToolUse: ['~/.claude/hooks/guard-paths.sh'],
  postToolUse: ['~/.claude/hooks/format-changed.sh'],
  stop: ['~/.claude/hooks/notify-desktop.sh', '~/.claude/hooks/record-usage.sh'],
};

/** System prompt and tool definitions: what every request carries before the conversation. */
const BASE_CONTEXT_TOKENS = 18_000;
const SIGNATURE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

const tokensIn = (value: unknown): number => Math.ceil((typeof value === 'string' ? value.length : JSON.stringify(value).length) / 4);

export interface TranscriptStart {
  startMs: number;
  /** the uuid to chain the first record to, when continuing an existing file */
  leaf?: string | null;
  hooks?: HookSetup;
}

export class Transcript {
  readonly records: TranscriptRecord[] = [];
  leaf: string | null;
  clock: number;
  readonly hooks: HookSetup;
  private contextTokens = BASE_CONTEXT_TOKENS;
  private unsentTokens = 0;

  constructor(
    readonly ctx: SessionContext,
    readonly rng: Rng,
    readonly model: string,
    start: TranscriptStart,
  ) {
    this.clock = start.startMs;
    this.leaf = start.leaf ?? null;
    this.hooks = start.hooks ?? DEMO_HOOKS;
  }

  get isSubagent(): boolean {
    return this.ctx.agentId !== undefined;
  }

  wait(minMs: number, maxMs: number): void {
    this.clock += this.rng.int(minMs, maxMs);
  }

  /** Adds a record to the chain: it gets a fresh uuid, the current leaf as parent, and the clock's time. */
  append(build: (link: Link) => TranscriptRecord): TranscriptRecord {
    const link = { parentUuid: this.leaf, uuid: uuid(this.rng), timestamp: new Date(this.clock).toISOString() };
    const record = build(link);
    this.records.push(record);
    this.leaf = link.uuid;
    return record;
  }

  /** Adds a record that sits outside the chain (snapshots, titles). */
  note(record: TranscriptRecord): void {
    this.records.push(record);
  }

  runHooks(event: HookRun['event'], matcher: string, commands: readonly string[], toolUseId: string): void {
    for (const command of commands) {
      this.clock += this.rng.int(1, 40);
      this.append((link) => hookProgress(this.ctx, link, { event, name: `${event}:${matcher}`, command, toolUseId }));
    }
  }

  sessionStart(): void {
    this.runHooks('SessionStart', 'startup', this.hooks.sessionStart, uuid(this.rng));
  }

  /** A typed prompt; the main session snapshots file history just before it. */
  prompt(text: string): string {
    const record = this.append((link) => userPrompt(this.ctx, link, text));
    if (!this.isSubagent) {
      this.records.splice(this.records.length - 1, 0, fileHistorySnapshot(record.uuid!, record.timestamp!));
    }
    this.unsentTokens += tokensIn(text);
    return record.timestamp!;
  }

  /** A Stop hook's blocking reason, written back as Claude Code does; returns its time. */
  stopHookFeedback(reason: string): string {
    const record = this.append((link) => stopHookFeedback(this.ctx, link, reason));
    this.unsentTokens += tokensIn(reason);
    return record.timestamp!;
  }

  /** Starts an API response that will carry these blocks, with usage computed from the context so far. */
  beginMessage(blocks: readonly AssistantBlock[]): ApiMessage {
    const created = this.unsentTokens;
    const output = Math.max(
      8,
      blocks.reduce((sum, block) => sum + tokensIn(block), 0),
    );
    const api: ApiMessage = {
      model: this.model,
      id: messageId(this.rng),
      requestId: requestId(this.rng),
      usage: {
        input_tokens: this.rng.int(1, 8),
        cache_creation_input_tokens: created,
        cache_read_input_tokens: this.contextTokens,
        cache_creation: { ephemeral_5m_input_tokens: created, ephemeral_1h_input_tokens: 0 },
        output_tokens: output,
        service_tier: 'standard',
      },
    };
    this.contextTokens += created + output;
    this.unsentTokens = 0;
    this.wait(1_500, 9_000); // time to first token
    return api;
  }

  /** One content block of an API response, written as its own line. */
  assistant(api: ApiMessage, block: AssistantBlock, stopReason: StopReason): TranscriptRecord {
    const record = this.append((link) => assistantLine(this.ctx, link, api, block, stopReason));
    this.wait(200, 2_500);
    return record;
  }

  toolResult(outcome: ToolOutcome): TranscriptRecord {
    this.unsentTokens += tokensIn(outcome.content);
    return this.append((link) => toolResult(this.ctx, link, outcome));
  }

  /** The Task tool's progress feed: one mirror of each subagent record, at that record's time. */
  mirrorSubagent(task: { toolUseId: string; messageId: string; agentId: string; prompt: string }, records: readonly TranscriptRecord[]): void {
    for (const record of records) {
      if (record.type !== 'user' && record.type !== 'assistant') continue;
      this.clock = Date.parse(record.timestamp!);
      this.append((link) => agentProgress(this.ctx, link, task, record));
    }
  }

  thinkingBlock(thinking: string): AssistantBlock {
    return { type: 'thinking', thinking, signature: this.rng.chars(SIGNATURE_ALPHABET, this.rng.int(180, 420)) };
  }

  /** Closes a turn the way Claude Code does: the stop hooks' summary, then the turn's duration. */
  endTurn(promptTimestamp: string): void {
    this.wait(50, 400);
    this.append((link) => stopHookSummary(this.ctx, link, this.hooks.stop, uuid(this.rng)));
    this.append((link) => turnDuration(this.ctx, link, this.clock - Date.parse(promptTimestamp)));
  }

  /** Replaces the conversation with a summary, as /compact does, and restarts the chain. */
  compact(summary: string): void {
    const preTokens = this.contextTokens + this.unsentTokens;
    this.wait(20_000, 60_000); // the summary is itself a model call
    this.append((link) => compactBoundary(this.ctx, link, { trigger: 'manual', preTokens }));
    this.append((link) => compactSummary(this.ctx, link, summary));
    this.contextTokens = BASE_CONTEXT_TOKENS;
    this.unsentTokens = tokensIn(summary);
    this.runHooks('SessionStart', 'compact', this.hooks.sessionStart, uuid(this.rng));
  }
}
