// Plays scripted turns into transcripts: prompts, thinking, tool calls and their results,
// replies, and the optional subagent, compaction and unanswered question.

import { agentId as newAgentId, type Rng, toolUseId } from './random';
import { type ApiMessage, type AssistantBlock, customTitle, type SessionContext, type StopReason, type TranscriptRecord } from './records';
import type { QuestionScript, Step, SubagentScript, TurnScript } from './story/types';
import { renderCall } from './tools';
import { Transcript } from './transcript';

const SUBAGENT_MODEL = 'claude-sonnet-4-5-20250929';

export interface SessionPlan {
  ctx: SessionContext;
  model: string;
  startMs: number;
  turns: readonly TurnScript[];
  /** set as the session's custom title after the first turn, as /rename would */
  title?: string;
  /** delegated through the Task tool at the start of the first turn */
  subagent?: SubagentScript;
  /** compact the conversation after this turn (0-based) */
  compactAfterTurn?: number;
  /** a last turn that asks the user something and is left waiting for the answer */
  question?: QuestionScript;
}

export interface SubagentTranscript {
  agentId: string;
  records: TranscriptRecord[];
}

export interface GeneratedSession {
  records: TranscriptRecord[];
  subagents: SubagentTranscript[];
  lastUuid: string;
  endMs: number;
}

export function generateSession(plan: SessionPlan, rng: Rng): GeneratedSession {
  const t = new Transcript(plan.ctx, rng, plan.model, { startMs: plan.startMs });
  const subagents: SubagentTranscript[] = [];
  t.sessionStart();
  plan.turns.forEach((turn, i) => {
    // the human types the first prompt, or reads the last reply and types the next one
    if (i === 0) t.wait(5_000, 60_000);
    else t.wait(40_000, 240_000);
    const subagent = playTurn(t, turn, i === 0 ? plan.subagent : undefined);
    if (subagent) subagents.push(subagent);
    if (i === 0 && plan.title) t.note(customTitle(plan.ctx.sessionId, plan.title));
    if (i === plan.compactAfterTurn) t.compact(compactionSummary(plan.turns.slice(0, i + 1)));
  });
  if (plan.question) {
    t.wait(40_000, 240_000);
    askQuestion(t, plan.question);
  }
  return { records: t.records, subagents, lastUuid: t.leaf!, endMs: t.clock };
}

/** Plays one whole turn; returns the subagent's transcript when the turn delegated work. */
export function playTurn(t: Transcript, turn: TurnScript, subagent?: SubagentScript): SubagentTranscript | undefined {
  const promptAt = t.prompt(turn.prompt);
  let thinking: string | undefined = turn.thinking;
  let delegated: SubagentTranscript | undefined;
  if (subagent) {
    delegated = delegate(t, subagent, thinking);
    thinking = undefined;
  }
  for (const step of turn.steps) {
    playStep(t, step, thinking);
    thinking = undefined;
  }
  playReply(t, turn.reply, promptAt);
  return delegated;
}

/** One API response with its tool calls, then each call's hooks and result. */
export function playStep(t: Transcript, step: Step, thinking?: string): void {
  const calls = step.calls.map((call) => ({ id: toolUseId(t.rng), ...renderCall(call, t.ctx.cwd) }));
  const { lineOf } = writeResponse(t, [
    ...(thinking ? [t.thinkingBlock(thinking)] : []),
    ...(step.text ? [{ type: 'text' as const, text: step.text }] : []),
    ...calls.map((c) => ({ type: 'tool_use' as const, id: c.id, name: c.name, input: c.input })),
  ]);
  for (const call of calls) {
    if (call.name === 'Bash') t.wait(800, 12_000);
    else t.wait(30, 600);
    t.runHooks('PostToolUse', call.name, t.hooks.postToolUse, call.id);
    t.toolResult({
      toolUseId: call.id,
      content: call.content,
      isError: call.isError,
      toolUseResult: call.toolUseResult,
      sourceUuid: lineOf.get(call.id)!,
    });
  }
}

/** The final reply of a turn, then the records that close the turn. */
export function playReply(t: Transcript, reply: string, promptAt: string): void {
  writeResponse(t, [{ type: 'text', text: reply }]);
  t.endTurn(promptAt);
}

/**
 * Writes one API response as one line per block, the last line carrying the stop reason, with
 * PreToolUse hooks right after each tool_use line. Returns the message and the line uuid of each
 * tool_use id.
 */
function writeResponse(t: Transcript, blocks: readonly AssistantBlock[]): { api: ApiMessage; lineOf: Map<string, string> } {
  const api = t.beginMessage(blocks);
  const lineOf = new Map<string, string>();
  const stopReason: StopReason = blocks.at(-1)?.type === 'tool_use' ? 'tool_use' : 'end_turn';
  blocks.forEach((block, i) => {
    const line = t.assistant(api, block, i === blocks.length - 1 ? stopReason : null);
    if (block.type !== 'tool_use') return;
    lineOf.set(block.id, line.uuid!);
    t.runHooks('PreToolUse', block.name, t.hooks.preToolUse, block.id);
  });
  return { api, lineOf };
}

/** Hands a script to a subagent via the Task tool; the main file gets its progress and its report. */
function delegate(t: Transcript, script: SubagentScript, thinking: string | undefined): SubagentTranscript {
  const agentId = newAgentId(t.rng);
  const taskId = toolUseId(t.rng);
  const input = { description: script.description, prompt: script.prompt, subagent_type: 'Explore' };
  const { api, lineOf } = writeResponse(t, [...(thinking ? [t.thinkingBlock(thinking)] : []), { type: 'tool_use', id: taskId, name: 'Task', input }]);

  const startedAt = t.clock;
  const sub = new Transcript({ ...t.ctx, agentId }, t.rng, SUBAGENT_MODEL, { startMs: startedAt, hooks: t.hooks });
  sub.prompt(script.prompt);
  for (const step of script.steps) playStep(sub, step);
  writeResponse(sub, [{ type: 'text', text: script.report }]);

  t.mirrorSubagent({ toolUseId: taskId, messageId: api.id, agentId, prompt: script.prompt }, sub.records);
  t.clock = sub.clock;
  const report = { type: 'text', text: script.report };
  t.runHooks('PostToolUse', 'Task', t.hooks.postToolUse, taskId);
  t.toolResult({
    toolUseId: taskId,
    content: [report, { type: 'text', text: `agentId: ${agentId} (pass this id to resume the agent)` }],
    isError: false,
    toolUseResult: {
      status: 'completed',
      prompt: script.prompt,
      agentId,
      content: [report],
      totalDurationMs: sub.clock - startedAt,
      totalToolUseCount: script.steps.reduce((n, step) => n + step.calls.length, 0),
    },
    sourceUuid: lineOf.get(taskId)!,
  });
  return { agentId, records: sub.records };
}

/** Asks the user a question and stops: the tool_use is never answered. */
function askQuestion(t: Transcript, script: QuestionScript): void {
  t.prompt(script.prompt);
  writeResponse(t, [
    t.thinkingBlock(script.thinking),
    { type: 'text', text: script.text },
    {
      type: 'tool_use',
      id: toolUseId(t.rng),
      name: 'AskUserQuestion',
      input: { questions: [{ ...script.question, multiSelect: false }] },
    },
  ]);
}

function compactionSummary(turns: readonly TurnScript[]): string {
  const items = turns.map((turn, i) => `${i + 1}. Asked: ${turn.prompt}\n   Done: ${turn.reply}`);
  return [
    'This session continues an earlier conversation that ran out of room. What happened so far:',
    '',
    ...items,
    '',
    'Pick up from the last request; the work above is committed to the working tree.',
  ].join('\n');
}
