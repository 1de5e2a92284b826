#!/usr/bin/env node
// A stand-in for Claude Code's permission flow, for tests: one tool call, asked the way Claude
// Code asks it. It writes the assistant's tool_use line to the transcript, runs the hooks
// settings.json configures for PermissionRequest with the JSON Claude Code sends, and races them
// with its own "terminal" answer as Claude Code does (docs/hooks.md): in the main session the
// dialog and the hook run at once and the first answer wins, an allow at the terminal does not
// stop the hook, a deny without feedback aborts the turn and kills it; for a background subagent
// the hook is awaited before the dialog shows. Then it acts on the decision: the tool result
// (with the updated input), and the PostToolUse hooks. It prints what happened as one JSON line.
//
//   claude.mjs --settings FILE --transcript FILE --session ID --tool NAME --input JSON
//              [--suggestions JSON] [--agent ID] [--terminal allow|deny] [--terminal-after MS] [--mode MODE]
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values: o } = parseArgs({
  options: {
    settings: { type: 'string' },
    transcript: { type: 'string' },
    session: { type: 'string' },
    tool: { type: 'string' },
    input: { type: 'string' },
    suggestions: { type: 'string', default: '[]' },
    agent: { type: 'string' },
    terminal: { type: 'string' },
    'terminal-after': { type: 'string', default: '0' },
    parent: { type: 'string' },
    mode: { type: 'string', default: 'default' },
  },
});
const input = JSON.parse(o.input);
const toolUseId = `toolu_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
const now = () => new Date().toISOString();
const base = (uuid, parent) => ({
  parentUuid: parent,
  isSidechain: false,
  userType: 'external',
  cwd: '/home/dev/demo',
  sessionId: o.session,
  version: '2.1.333',
  uuid,
  timestamp: now(),
});

const callUuid = randomUUID();
appendFileSync(
  o.transcript,
  `${JSON.stringify({ ...base(callUuid, o.parent ?? null), type: 'assistant', message: { id: `msg_${callUuid}`, role: 'assistant', model: 'claude-stand-in', type: 'message', content: [{ type: 'tool_use', id: toolUseId, name: o.tool, input }], stop_reason: 'tool_use', usage: { input_tokens: 1, output_tokens: 1 } } })}\n`,
);

const hooks = JSON.parse(readFileSync(o.settings, 'utf8')).hooks ?? {};
/** The commands an event runs for this tool: a group without a matcher, or whose matcher (a regex of tool names) takes it. */
const commands = (event) =>
  (hooks[event] ?? [])
    .filter((group) => !group.matcher || group.matcher === '*' || new RegExp(`^(?:${group.matcher})$`).test(o.tool))
    .flatMap((group) => group.hooks.filter((h) => h.type === 'command').map((h) => h.command));
const common = {
  session_id: o.session,
  transcript_path: o.transcript,
  cwd: '/home/dev/demo',
  permission_mode: o.mode,
  ...(o.agent && { agent_id: o.agent, agent_type: 'general-purpose' }),
};

/** Runs one hook command through the shell, the event's JSON on stdin. */
function runHook(command, payload) {
  const started = Date.now();
  // its own process group, so an abort ends the shell and what it started
  const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'pipe', 'inherit'], detached: true });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stdin.end(JSON.stringify(payload));
  const done = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal, out, ms: Date.now() - started })));
  return { child, done };
}

// PreToolUse first: a decision there (with the answers, for a question) settles the call before any dialog
const preToolUse = commands('PreToolUse').map((command) =>
  runHook(command, { ...common, hook_event_name: 'PreToolUse', tool_name: o.tool, tool_input: input, tool_use_id: toolUseId }),
);
let preDecision = null;
for (const { done } of preToolUse) {
  const { out } = await done;
  const said = out.trim() ? JSON.parse(out).hookSpecificOutput : null;
  if (said?.permissionDecision === 'allow') preDecision = { behavior: 'allow', ...(said.updatedInput && { updatedInput: said.updatedInput }) };
  else if (said?.permissionDecision === 'deny') preDecision = { behavior: 'deny', message: said.permissionDecisionReason };
  if (preDecision) break;
}

const request = { ...common, hook_event_name: 'PermissionRequest', tool_name: o.tool, tool_input: input, permission_suggestions: JSON.parse(o.suggestions) };
const asked = preDecision ? preToolUse : commands('PermissionRequest').map((command) => runHook(command, request));
const hookDecision = async () => {
  for (const { done } of asked) {
    const { out } = await done;
    const decision = out.trim() ? JSON.parse(out).hookSpecificOutput?.decision : null;
    if (decision) return decision;
  }
  return null;
};

let answer = null;
const claim = (by, decision) => {
  if (answer) return;
  answer = { by, decision };
};
/** The person at the terminal: answers after a while, or never. */
const terminal = () =>
  o.terminal
    ? new Promise((resolve) =>
        setTimeout(() => {
          // a deny without feedback aborts the turn, and with it the hook
          if (o.terminal === 'deny' && !answer) for (const { child } of asked) process.kill(-child.pid, 'SIGTERM');
          claim(
            'terminal',
            o.terminal === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: "The user doesn't want to proceed with this tool use." },
          );
          resolve();
        }, Number(o['terminal-after'])),
      )
    : new Promise(() => {});

if (preDecision) claim('pre-tool-use', preDecision);
else if (o.agent) {
  // a background subagent: the hook first, the dialog only after it returned
  const decision = await hookDecision();
  if (decision) claim('hook', decision);
  else await terminal();
} else {
  // the main session: the dialog and the hook at once, the first answer wins
  const atTerminal = terminal();
  const decision = await Promise.race([hookDecision(), atTerminal.then(() => null)]);
  if (decision) claim('hook', decision);
  if (!answer) await atTerminal;
}

const applied = answer?.decision?.behavior === 'allow' ? (answer.decision.updatedInput ?? input) : input;
const resultUuid = randomUUID();
const allowed = answer?.decision?.behavior === 'allow';
const text = allowed ? resultText(o.tool, applied) : (answer?.decision?.message ?? 'Permission denied');
appendFileSync(
  o.transcript,
  `${JSON.stringify({ ...base(resultUuid, callUuid), type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUseId, content: text, ...(!allowed && { is_error: true }) }] }, toolUseResult: text })}\n`,
);
if (allowed) {
  const post = { ...common, hook_event_name: 'PostToolUse', tool_name: o.tool, tool_input: applied, tool_use_id: toolUseId, tool_response: text };
  await Promise.all(commands('PostToolUse').map((command) => runHook(command, post).done));
}
// the hook Claude Code did not stop: how it ended, bounded
const hook = await Promise.race([Promise.all(asked.map((a) => a.done)), new Promise((resolve) => setTimeout(() => resolve(null), 15_000).unref())]);
process.stdout.write(`${JSON.stringify({ by: answer?.by ?? null, decision: answer?.decision ?? null, input: applied, toolUseId, resultUuid, hooks: hook })}\n`);

function resultText(tool, applied) {
  if (tool === 'AskUserQuestion')
    return `User has answered your questions: ${Object.entries(applied.answers ?? {})
      .map(([q, a]) => `"${q}"="${a}"`)
      .join(', ')}.`;
  if (tool === 'ExitPlanMode') return 'User has approved your plan. You can now start coding.';
  return `ran ${tool}`;
}
