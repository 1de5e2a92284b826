// One builder per record kind, each returning the exact on-disk shape of a Claude Code 2.1.x
// transcript line, fields in the order Claude Code writes them.

/** The Claude Code release whose on-disk format these builders reproduce. */
export const CLAUDE_CODE_VERSION = '2.1.39';

export interface TranscriptRecord {
  type: string;
  uuid?: string;
  parentUuid?: string | null;
  timestamp?: string;
  [field: string]: unknown;
}

/** Who is writing: the main conversation, or a subagent when agentId is set. */
export interface SessionContext {
  sessionId: string;
  cwd: string;
  gitBranch: string;
  version: string;
  agentId?: string;
}

/** Where a record sits in the parentUuid chain, and when it was written. */
export interface Link {
  parentUuid: string | null;
  uuid: string;
  timestamp: string;
}

export interface Usage {
  input_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  output_tokens: number;
  service_tier: string;
}

/** One API response; Claude Code writes each of its content blocks as its own line. */
export interface ApiMessage {
  model: string;
  id: string;
  requestId: string;
  usage: Usage;
}

export type StopReason = null | 'tool_use' | 'end_turn';

export type AssistantBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };

function header(ctx: SessionContext, parentUuid: string | null) {
  return {
    parentUuid,
    isSidechain: ctx.agentId !== undefined,
    userType: 'external',
    cwd: ctx.cwd,
    sessionId: ctx.sessionId,
    version: ctx.version,
    gitBranch: ctx.gitBranch,
    ...(ctx.agentId !== undefined && { agentId: ctx.agentId }),
  };
}

export function userPrompt(ctx: SessionContext, link: Link, text: string): TranscriptRecord {
  return {
    ...header(ctx, link.parentUuid),
    type: 'user',
    message: { role: 'user', content: text },
    uuid: link.uuid,
    timestamp: link.timestamp,
  };
}

/** What Claude Code writes when a Stop hook blocks: its reason, handed to the model as the next thing to do. */
export function stopHookFeedback(ctx: SessionContext, link: Link, reason: string): TranscriptRecord {
  return { ...userPrompt(ctx, link, `Stop hook feedback:\n${reason}`), isMeta: true };
}

export function assistantLine(ctx: SessionContext, link: Link, api: ApiMessage, block: AssistantBlock, stopReason: StopReason): TranscriptRecord {
  const content = block.type === 'tool_use' ? { ...block, caller: { type: 'direct' } } : block;
  return {
    ...header(ctx, link.parentUuid),
    message: {
      model: api.model,
      id: api.id,
      type: 'message',
      role: 'assistant',
      content: [content],
      stop_reason: stopReason,
      stop_sequence: null,
      usage: api.usage,
    },
    requestId: api.requestId,
    type: 'assistant',
    uuid: link.uuid,
    timestamp: link.timestamp,
  };
}

export interface ToolOutcome {
  toolUseId: string;
  content: unknown;
  isError: boolean;
  /** the structured result Claude Code keeps beside the text the model saw */
  toolUseResult: unknown;
  /** uuid of the assistant line that made the call */
  sourceUuid: string;
}

export function toolResult(ctx: SessionContext, link: Link, outcome: ToolOutcome): TranscriptRecord {
  return {
    ...header(ctx, link.parentUuid),
    type: 'user',
    message: {
      role: 'user',
      content: [{ tool_use_id: outcome.toolUseId, type: 'tool_result', content: outcome.content, is_error: outcome.isError }],
    },
    uuid: link.uuid,
    timestamp: link.timestamp,
    toolUseResult: outcome.toolUseResult,
    sourceToolAssistantUUID: outcome.sourceUuid,
  };
}

export function turnDuration(ctx: SessionContext, link: Link, durationMs: number): TranscriptRecord {
  return {
    ...header(ctx, link.parentUuid),
    type: 'system',
    subtype: 'turn_duration',
    durationMs,
    timestamp: link.timestamp,
    uuid: link.uuid,
    isMeta: false,
  };
}

export function stopHookSummary(ctx: SessionContext, link: Link, commands: readonly string[], hookRunId: string): TranscriptRecord {
  return {
    ...header(ctx, link.parentUuid),
    type: 'system',
    subtype: 'stop_hook_summary',
    hookCount: commands.length,
    hookInfos: commands.map((command) => ({ command })),
    hookErrors: [],
    preventedContinuation: false,
    stopReason: '',
    hasOutput: true,
    level: 'suggestion',
    timestamp: link.timestamp,
    uuid: link.uuid,
    toolUseID: hookRunId,
  };
}

/**
 * Starts a new chain after compaction. The link's parentUuid (the leaf before compaction) is
 * written as logicalParentUuid and parentUuid is null, so readers can stitch the session together.
 */
export function compactBoundary(ctx: SessionContext, link: Link, compaction: { trigger: 'auto' | 'manual'; preTokens: number }): TranscriptRecord {
  const { parentUuid, ...base } = header(ctx, null);
  return {
    parentUuid,
    logicalParentUuid: link.parentUuid,
    ...base,
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    timestamp: link.timestamp,
    uuid: link.uuid,
    level: 'info',
    compactMetadata: compaction,
  };
}

export function compactSummary(ctx: SessionContext, link: Link, summary: string): TranscriptRecord {
  return {
    ...header(ctx, link.parentUuid),
    type: 'user',
    message: { role: 'user', content: summary },
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
    uuid: link.uuid,
    timestamp: link.timestamp,
  };
}

export interface HookRun {
  event: 'SessionStart' | 'PreToolUse' | 'PostToolUse';
  /** e.g. "PreToolUse:Bash" or "SessionStart:startup" */
  name: string;
  command: string;
  /** the tool call the hook ran for, or a fresh id for session hooks */
  toolUseId: string;
}

export function hookProgress(ctx: SessionContext, link: Link, hook: HookRun): TranscriptRecord {
  return {
    ...header(ctx, link.parentUuid),
    type: 'progress',
    data: { type: 'hook_progress', hookEvent: hook.event, hookName: hook.name, command: hook.command },
    parentToolUseID: hook.toolUseId,
    toolUseID: hook.toolUseId,
    uuid: link.uuid,
    timestamp: link.timestamp,
  };
}

/** The main session's mirror of one subagent record, written while the Task call runs. */
export function agentProgress(
  ctx: SessionContext,
  link: Link,
  task: { toolUseId: string; messageId: string; agentId: string; prompt: string },
  mirrored: TranscriptRecord,
): TranscriptRecord {
  const message: Record<string, unknown> = {
    type: mirrored.type,
    message: mirrored.message,
    uuid: mirrored.uuid,
    timestamp: mirrored.timestamp,
  };
  if (mirrored.requestId !== undefined) message.requestId = mirrored.requestId;
  return {
    ...header(ctx, link.parentUuid),
    type: 'progress',
    data: { message, normalizedMessages: [], type: 'agent_progress', prompt: task.prompt, agentId: task.agentId },
    toolUseID: `agent_${task.messageId}`,
    parentToolUseID: task.toolUseId,
    uuid: link.uuid,
    timestamp: link.timestamp,
  };
}

/** Written before each prompt so file edits can be rolled back to it; not part of the chain. */
export function fileHistorySnapshot(promptUuid: string, timestamp: string): TranscriptRecord {
  return {
    type: 'file-history-snapshot',
    messageId: promptUuid,
    snapshot: { messageId: promptUuid, trackedFileBackups: {}, timestamp },
    isSnapshotUpdate: false,
  };
}

/** Written when the user renames the session (/rename); not part of the chain. */
export function customTitle(sessionId: string, title: string): TranscriptRecord {
  return { type: 'custom-title', customTitle: title, sessionId };
}
