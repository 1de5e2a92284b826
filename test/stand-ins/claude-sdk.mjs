#!/usr/bin/env node
// A stand-in for Claude Code's CLI as the Claude Agent SDK runs it, for tests: Loom's real SDK code
// path (`query({ prompt, options: { pathToClaudeCodeExecutable: '<this file>' } })`) drives it
// where the real CLI cannot run (it needs a login and the network). The SDK starts it as
//
//   node claude-sdk.mjs --output-format stream-json --verbose --input-format stream-json
//        [--permission-prompt-tool=stdio] [--permission-mode=MODE] [--model=M] [--session-id=ID]
//        [--resume=ID] [--continue] [--fork-session] [--settings FILE|JSON] [--setting-sources=LIST]
//
// and it speaks the SDK's stream-json protocol: JSON lines in on stdin (the initialize, interrupt,
// set_permission_mode and set_model control requests; user messages; control responses), JSON lines
// out on stdout (control responses; per turn a system/init, the assistant and user messages, and a
// result; can_use_tool control requests; session_state_changed). Errors go to stderr. It exits when
// stdin ends and the work already read is done.
//
// The model is scripted and deterministic; the prompt's text decides each turn:
//   plain text              one text reply, "Echo: <prompt>"
//   [tool:Bash:<command>]   a Bash tool_use asked through can_use_tool (the SDK's canUseTool); allowed,
//                           its result is "ran <command>"; denied, an is_error result with the message
//   [slow:<ms>]             "working…", then a Bash `sleep` that needs no permission and ends after <ms>
//   [die]                   the prompt is written to the transcript, then the process exits 1 at once
// Every prompt ends with the reply "Echo: <prompt>". A prompt sent mid-turn is queued and taken at the
// next tool boundary, as Claude Code folds queued input into the running turn. An interrupt ends the
// turn the way Claude Code does: the "[Request interrupted by user…]" user line and an
// error_during_execution result; queued prompts survive it unless it says cancel_queued.
//
// The transcript is Claude Code 2.1.x JSONL at $CLAUDE_CONFIG_DIR/projects/<cwd, every
// non-alphanumeric character a '-'>/<session id>.jsonl (CLAUDE_CONFIG_DIR defaults to ~/.claude).
// --resume continues a session in the shape STAND_IN_RESUME_SHAPE names: `same` (the default, 2.x)
// appends to the same file under the same id; `copy` (1.0.x, and what --fork-session always does)
// starts a new id whose file opens with the old lines, their sessionId rewritten.
//
// Hooks: the UserPromptSubmit and Stop hooks that $CLAUDE_CONFIG_DIR/settings.json (when
// --setting-sources lets in `user`) or --settings configure run as Claude Code runs them: `sh -c`,
// the event's JSON on stdin. A Stop hook that blocks ({"decision":"block","reason":R}, or exit code 2
// with R on stderr) adds the isMeta "Stop hook feedback" line and the turn goes on with R as the
// prompt, up to CLAUDE_CODE_STOP_HOOK_BLOCK_CAP (8, as in Claude Code) times in a row.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { parseArgs } from 'node:util';

const VERSION = '2.1.333';
const INTERRUPTED = '[Request interrupted by user]';
const INTERRUPTED_FOR_TOOL = '[Request interrupted by user for tool use]';
const REJECTED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
const NOT_GRANTED = "Claude requested permissions to use Bash, but you haven't granted it yet.";
const STOP_BLOCK_CAP = Number(process.env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP) || 8;
const TOOLS = ['Task', 'Bash', 'Glob', 'Grep', 'Read', 'Edit', 'Write', 'NotebookEdit', 'WebFetch', 'WebSearch', 'TodoWrite'];

const { values: flags } = parseArgs({
  strict: false,
  options: {
    'permission-prompt-tool': { type: 'string' },
    'permission-mode': { type: 'string', default: 'default' },
    model: { type: 'string', default: 'claude-stand-in' },
    'session-id': { type: 'string' },
    resume: { type: 'string' },
    continue: { type: 'boolean' },
    'fork-session': { type: 'boolean' },
    settings: { type: 'string' },
    'setting-sources': { type: 'string' },
  },
});

const cwd = process.cwd();
const configDir = process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude');
const projectDir = join(configDir, 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
const entrypoint = process.env.CLAUDE_CODE_ENTRYPOINT ?? 'cli';
const reportsState = Boolean(process.env.CLAUDE_CODE_SDK_READS_SESSION_STATE || process.env.CLAUDE_CODE_EMIT_SESSION_STATE_EVENTS);
const session = openSession();
const transcriptPath = join(projectDir, `${session.id}.jsonl`);
const hooks = readHooks();

let parentUuid = session.lastUuid;
/** The old session's lines a `copy` resume writes first, with the first line of its own. */
let unwrittenCopy = session.copied;
let permissionMode = flags['permission-mode'];
let model = flags.model;
let state = 'idle';
let resultIndex = 0;
/** Bash rules an "always allow" answer added for this session. */
const allowRules = [];
/** User messages read from stdin and not yet taken into a turn. */
const queue = [];
/** can_use_tool requests waiting for the SDK's control_response, by request_id. */
const waiting = new Map();
/** Tokens per model for the whole run, as every result reports them. */
const modelUsage = {};
let busy = false;
/** The turn running now: its abort, its planned steps, and what its result will report. */
let turn = null;

class Interrupted extends Error {
  constructor(forTool) {
    super('interrupted');
    this.forTool = forTool;
  }
}

createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (text) => {
  if (!text.trim()) return;
  try {
    read(JSON.parse(text));
  } catch (error) {
    process.stderr.write(`claude-sdk stand-in: cannot read ${text}: ${error.message}\n`);
  }
});

// ---- the session and its transcript ----

/** The session this run writes: a new one, or the one --resume / --continue names. */
function openSession() {
  const resumeId = flags.resume ?? (flags.continue ? latestSessionId() : undefined);
  if (!resumeId) return { id: flags['session-id'] ?? randomUUID(), lastUuid: null, copied: [] };
  const lines = readTranscript(resumeId);
  const lastUuid = lines.findLast((line) => line.uuid)?.uuid ?? null;
  if (!flags['fork-session'] && process.env.STAND_IN_RESUME_SHAPE !== 'copy') return { id: resumeId, lastUuid, copied: [] };
  const id = flags['session-id'] ?? randomUUID();
  return { id, lastUuid, copied: lines.map((line) => ('sessionId' in line ? { ...line, sessionId: id } : line)) };
}

function latestSessionId() {
  const files = existsSync(projectDir) ? readdirSync(projectDir).filter((name) => name.endsWith('.jsonl')) : [];
  const mtime = (name) => statSync(join(projectDir, name)).mtimeMs;
  const latest = files.sort((a, b) => mtime(b) - mtime(a))[0];
  return latest ? latest.slice(0, -'.jsonl'.length) : fail('No conversation found to continue');
}

function readTranscript(id) {
  const file = join(projectDir, `${id}.jsonl`);
  if (!existsSync(file)) fail(`No conversation found with session ID: ${id}`);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

function fail(message) {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function append(entry) {
  mkdirSync(projectDir, { recursive: true });
  appendFileSync(transcriptPath, [...unwrittenCopy, entry].map((line) => `${JSON.stringify(line)}\n`).join(''));
  unwrittenCopy = [];
}

/** Appends a line to the conversation chain (its parent is the line before) and returns it. */
function chain(fields, uuid = randomUUID()) {
  const timestamp = new Date().toISOString();
  const line = { parentUuid, isSidechain: false, ...fields, uuid, timestamp, userType: 'external', entrypoint, cwd, sessionId: session.id, version: VERSION };
  append(line);
  parentUuid = uuid;
  if (turn) turn.lines++;
  return line;
}

function queueOperation(operation, content) {
  append({ type: 'queue-operation', operation, timestamp: new Date().toISOString(), sessionId: session.id, ...(content !== undefined && { content }) });
}

// ---- the protocol ----

function emit(message) {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

function read(message) {
  if (message.type === 'control_request') answerControl(message);
  else if (message.type === 'control_response') waiting.get(message.response.request_id)?.(message.response);
  else if (message.type === 'user') enqueue(message);
}

function answerControl({ request_id, request }) {
  const reply = (response) => emit({ type: 'control_response', response: { subtype: 'success', request_id, response } });
  if (request.subtype === 'initialize') reply(initializeResponse());
  else if (request.subtype === 'interrupt') reply(interrupt(request.cancel_queued === true));
  else if (request.subtype === 'set_permission_mode') {
    permissionMode = request.mode;
    reply({ mode: permissionMode });
  } else if (request.subtype === 'set_model') {
    model = request.model ?? flags.model;
    reply({});
  } else emit({ type: 'control_response', response: { subtype: 'error', request_id, error: `Unsupported control request subtype: ${request.subtype}` } });
}

function initializeResponse() {
  return {
    commands: [],
    agents: [{ name: 'general-purpose', description: 'General-purpose agent for multi-step tasks' }],
    output_style: 'default',
    available_output_styles: ['default'],
    models: [{ value: model, displayName: model, description: 'The scripted stand-in model' }],
    account: { apiKeySource: 'none', apiProvider: 'firstParty' },
    claude_code_version: VERSION,
  };
}

/** Ends the running turn; queued prompts stay (their uuids listed) or, with cancel_queued, go. */
function interrupt(cancelQueued) {
  const uuids = queue.flatMap((message) => (message.uuid ? [message.uuid] : []));
  if (cancelQueued) for (const _ of queue.splice(0)) queueOperation('remove');
  turn?.abort.abort();
  return cancelQueued ? { still_queued: [], cancelled: uuids } : { still_queued: uuids };
}

function setState(next) {
  if (!reportsState || next === state) return;
  state = next;
  emit({ type: 'system', subtype: 'session_state_changed', state, uuid: randomUUID(), session_id: session.id });
}

function emitInit() {
  emit({
    type: 'system',
    subtype: 'init',
    cwd,
    session_id: session.id,
    tools: TOOLS,
    mcp_servers: [],
    model,
    permissionMode,
    slash_commands: ['compact', 'context', 'cost', 'init', 'review'],
    apiKeySource: 'none',
    claude_code_version: VERSION,
    output_style: 'default',
    agents: ['general-purpose'],
    skills: [],
    plugins: [],
    capabilities: ['interrupt_receipt_v1', 'interrupt_cancel_queued_v1'],
    uuid: randomUUID(),
  });
}

// ---- turns ----

function enqueue(message) {
  queueOperation('enqueue', message.message.content);
  queue.push(message);
  if (!busy) runTurns().catch(crash);
}

async function runTurns() {
  busy = true;
  while (queue.length > 0) await runTurn(queue.shift());
  busy = false;
  setState('idle');
}

function crash(error) {
  process.stderr.write(`claude-sdk stand-in: ${error.stack}\n`);
  process.exit(1);
}

async function runTurn(first) {
  turn = { started: Date.now(), abort: new AbortController(), steps: [], lines: 0, calls: 0, usage: usage(0, 0), denials: [], consumed: [] };
  emitInit();
  setState('running');
  try {
    await takePrompt(first);
    await runSteps();
    chain({ type: 'system', subtype: 'turn_duration', durationMs: Date.now() - turn.started, messageCount: turn.lines, isMeta: false });
    emit(result());
  } catch (error) {
    if (!(error instanceof Interrupted)) throw error;
    userLine([{ type: 'text', text: error.forTool ? INTERRUPTED_FOR_TOOL : INTERRUPTED }]);
    emit(result(error));
  } finally {
    turn = null;
  }
}

/**
 * Takes a user message into the running turn: its UserPromptSubmit hooks, then its transcript line
 * (Claude Code records the prompt once the hooks have run), then its plan.
 */
async function takePrompt(message) {
  queueOperation('dequeue');
  const { content } = message.message;
  const text = typeof content === 'string' ? content : content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  turn.promptId = randomUUID();
  await runHooks('UserPromptSubmit', { prompt: text });
  chain({ promptId: turn.promptId, type: 'user', message: { role: 'user', content }, permissionMode }, message.uuid);
  if (text.includes('[die]')) process.exit(1);
  if (message.uuid) {
    turn.consumed.push(message.uuid);
    turn.stamp = message.uuid;
  }
  plan(text);
}

/** The scripted model: a step for each marker in the prompt, in order, then the echo. */
function plan(text) {
  for (const [, command, ms] of text.matchAll(/\[(?:tool:Bash:([^\]]+)|slow:(\d+))\]/g)) {
    if (command) turn.steps.push({ input: { command, description: `Run ${command}` } });
    else turn.steps.push({ text: 'working…' }, { input: { command: `sleep ${Number(ms) / 1000}`, description: `Wait ${ms} ms` }, ms: Number(ms) });
  }
  turn.steps.push({ text: `Echo: ${text}` });
}

async function runSteps() {
  for (let blocks = 0; ; blocks++) {
    while (turn.steps.length > 0) {
      if (turn.abort.signal.aborted) throw new Interrupted(false);
      const step = turn.steps.shift();
      if (step.input) await runTool(step);
      else {
        assistant({ type: 'text', text: step.text });
        turn.lastText = step.text;
      }
    }
    const reason = await stopHookBlock(blocks > 0);
    if (turn.abort.signal.aborted) throw new Interrupted(false);
    if (reason === undefined || blocks === STOP_BLOCK_CAP) return;
    chain({ type: 'user', message: { role: 'user', content: `Stop hook feedback:\n${reason}` }, isMeta: true });
    plan(reason);
  }
}

/** Writes one content block of the model's reply; consecutive blocks up to a tool_use are one API response. */
function assistant(block) {
  if (!turn.response) {
    turn.response = { id: `msg_${randomUUID().replaceAll('-', '')}`, requestId: `req_${randomUUID().replaceAll('-', '')}` };
    turn.calls++;
  }
  const stopReason = block.type === 'tool_use' || turn.steps.some((step) => step.input) ? 'tool_use' : 'end_turn';
  const used = usage(8, Math.ceil(JSON.stringify(block).length / 4));
  const message = {
    model,
    id: turn.response.id,
    type: 'message',
    role: 'assistant',
    content: [block],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: used,
  };
  const line = chain({ message, requestId: turn.response.requestId, type: 'assistant' });
  emit({ type: 'assistant', message, parent_tool_use_id: null, session_id: session.id, uuid: line.uuid, timestamp: line.timestamp, ...stamp() });
  count(used);
  turn.stopReason = stopReason;
  if (block.type === 'tool_use' || turn.steps.length === 0) turn.response = null;
  return line;
}

/** The uuids the first assistant message after a user message carries, binding the reply to its send. */
function stamp() {
  if (!turn.stamp) return {};
  const stamped = { user_message_uuid: turn.stamp, user_message_uuids: [...turn.consumed] };
  turn.stamp = undefined;
  return stamped;
}

function userLine(content, extra = {}) {
  const line = chain({ promptId: turn.promptId, type: 'user', message: { role: 'user', content }, ...extra });
  const toolUseResult = extra.toolUseResult === undefined ? {} : { tool_use_result: extra.toolUseResult };
  emit({ type: 'user', message: line.message, parent_tool_use_id: null, session_id: session.id, uuid: line.uuid, timestamp: line.timestamp, ...toolUseResult });
}

async function runTool(step) {
  const id = `toolu_${randomUUID().replaceAll('-', '').slice(0, 24)}`;
  const call = assistant({ type: 'tool_use', id, name: 'Bash', input: step.input });
  const outcome = await toolOutcome(id, step).catch((error) => {
    if (error instanceof Interrupted) return { content: REJECTED, isError: true, toolUseResult: 'User rejected tool use', interrupted: true };
    throw error;
  });
  const block = { tool_use_id: id, type: 'tool_result', content: outcome.content, is_error: outcome.isError };
  userLine([block], { toolUseResult: outcome.toolUseResult, sourceToolAssistantUUID: call.uuid });
  if (outcome.interrupted) throw new Interrupted(true);
  // the tool boundary: prompts sent meanwhile join the turn here
  for (const message of queue.splice(0)) await takePrompt(message);
}

async function toolOutcome(id, step) {
  const decision = step.ms ? { behavior: 'allow' } : await permission(id, step.input);
  if (decision.behavior === 'deny') {
    turn.denials.push({ tool_name: 'Bash', tool_use_id: id, tool_input: step.input });
    return { content: decision.message, isError: true, toolUseResult: `Error: ${decision.message}`, interrupted: decision.interrupt === true };
  }
  for (const update of decision.updatedPermissions ?? []) remember(update);
  const input = decision.updatedInput ?? step.input;
  if (step.ms) await delay(step.ms, undefined, { signal: turn.abort.signal }).catch(() => Promise.reject(new Interrupted(true)));
  const stdout = `ran ${input.command}`;
  return { content: stdout, isError: false, toolUseResult: { stdout, stderr: '', interrupted: false, isImage: false, noOutputExpected: false } };
}

/** Decides a Bash call the way Claude Code's permission flow does, asking the SDK when it must. */
async function permission(id, input) {
  if (permissionMode === 'bypassPermissions' || allowRules.some((rule) => covers(rule, input.command))) return { behavior: 'allow' };
  if (permissionMode === 'dontAsk' || flags['permission-prompt-tool'] !== 'stdio') {
    emit({
      type: 'system',
      subtype: 'permission_denied',
      tool_name: 'Bash',
      tool_use_id: id,
      message: NOT_GRANTED,
      uuid: randomUUID(),
      session_id: session.id,
    });
    return { behavior: 'deny', message: NOT_GRANTED };
  }
  const request_id = randomUUID();
  const suggestions = [{ type: 'addRules', rules: [{ toolName: 'Bash', ruleContent: input.command }], behavior: 'allow', destination: 'localSettings' }];
  const answered = new Promise((resolve) => waiting.set(request_id, resolve));
  emit({
    type: 'control_request',
    request_id,
    request: { subtype: 'can_use_tool', tool_name: 'Bash', input, permission_suggestions: suggestions, tool_use_id: id },
  });
  setState('requires_action');
  try {
    const answer = await abortable(answered, () => emit({ type: 'control_cancel_request', request_id }));
    return answer.subtype === 'success' ? answer.response : { behavior: 'deny', message: answer.error };
  } finally {
    waiting.delete(request_id);
    setState('running');
  }
}

function covers(rule, command) {
  if (rule.toolName !== 'Bash') return false;
  if (!rule.ruleContent) return true;
  return rule.ruleContent.endsWith(':*') ? command.startsWith(rule.ruleContent.slice(0, -2)) : rule.ruleContent === command;
}

/** Applies an "always allow" answer's permission update for the rest of the session. */
function remember(update) {
  if (update.type === 'addRules' && update.behavior === 'allow') allowRules.push(...update.rules);
  else if (update.type === 'setMode') permissionMode = update.mode;
}

/** The promise, or an Interrupted rejection when the turn is interrupted first. */
function abortable(promise, onAbort) {
  const { signal } = turn.abort;
  return new Promise((resolve, reject) => {
    const stop = () => {
      onAbort();
      reject(new Interrupted(true));
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    promise.then((value) => {
      signal.removeEventListener('abort', stop);
      resolve(value);
    });
  });
}

// ---- usage and the result ----

function usage(input, output) {
  return {
    input_tokens: input,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    output_tokens: output,
    server_tool_use: { web_search_requests: 0, web_fetch_requests: 0 },
    service_tier: 'standard',
    cache_creation: { ephemeral_1h_input_tokens: 0, ephemeral_5m_input_tokens: 0 },
  };
}

function count(used) {
  turn.usage.input_tokens += used.input_tokens;
  turn.usage.output_tokens += used.output_tokens;
  modelUsage[model] ??= {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    webSearchRequests: 0,
    costUSD: 0,
    contextWindow: 200_000,
    maxOutputTokens: 32_000,
  };
  modelUsage[model].inputTokens += used.input_tokens;
  modelUsage[model].outputTokens += used.output_tokens;
}

/** The turn's result message: success, or error_during_execution for an interrupted turn. */
function result(interrupted) {
  const duration = Date.now() - turn.started;
  const common = {
    duration_ms: duration,
    duration_api_ms: duration,
    num_turns: turn.calls,
    stop_reason: turn.stopReason ?? null,
    session_id: session.id,
    total_cost_usd: 0,
    usage: turn.usage,
    modelUsage,
    permission_denials: turn.denials,
    queued_turn_count: queue.length,
    result_index: resultIndex++,
    ...(turn.consumed.length > 0 && { user_message_uuid: turn.consumed.at(-1), user_message_uuids: turn.consumed }),
    uuid: randomUUID(),
  };
  if (!interrupted) return { type: 'result', subtype: 'success', is_error: false, ...common, result: turn.lastText, terminal_reason: 'completed' };
  const errors = [`[ede_diagnostic] result_type=user last_content_type=n/a stop_reason=${common.stop_reason}`];
  return {
    type: 'result',
    subtype: 'error_during_execution',
    is_error: true,
    ...common,
    errors,
    terminal_reason: interrupted.forTool ? 'aborted_tools' : 'aborted_streaming',
  };
}

// ---- hooks ----

async function runHooks(event, fields) {
  const payload = {
    session_id: session.id,
    transcript_path: transcriptPath,
    cwd,
    prompt_id: turn.promptId,
    permission_mode: permissionMode,
    hook_event_name: event,
    ...fields,
  };
  const commands = (hooks[event] ?? []).flatMap((group) => group.hooks ?? []).filter((hook) => hook.type === 'command');
  return Promise.all(commands.map((hook) => runHook(hook.command, payload, hook.timeout)));
}

/**
 * The hooks Claude Code snapshots at startup, by event: from the user's settings.json (when
 * --setting-sources lets `user` in) and from --settings (a file or JSON).
 */
function readHooks() {
  const sources = flags['setting-sources']?.split(',') ?? ['user', 'project', 'local'];
  const user = join(configDir, 'settings.json');
  const texts = sources.includes('user') && existsSync(user) ? [readFileSync(user, 'utf8')] : [];
  if (flags.settings?.trim().startsWith('{')) texts.push(flags.settings);
  else if (flags.settings) texts.push(existsSync(flags.settings) ? readFileSync(flags.settings, 'utf8') : fail(`Settings file not found: ${flags.settings}`));
  const byEvent = {};
  for (const configured of texts.map((text) => JSON.parse(text))) {
    for (const [event, groups] of Object.entries(configured.hooks ?? {})) byEvent[event] = [...(byEvent[event] ?? []), ...groups];
  }
  return byEvent;
}

function runHook(command, payload, timeoutSeconds = 60) {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env: { ...process.env, CLAUDE_PROJECT_DIR: cwd }, timeout: timeoutSeconds * 1000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', (error) => resolve({ code: null, stdout, stderr: error.message }));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // a hook that never reads its input
    child.stdin.end(JSON.stringify(payload));
  });
}

/** The reason the first blocking Stop hook gives, or undefined when the turn may end. */
async function stopHookBlock(active) {
  const outcomes = await runHooks('Stop', { stop_hook_active: active, last_assistant_message: turn.lastText });
  for (const { code, stdout, stderr } of outcomes) {
    if (code === 2) return stderr.trim();
    if (said(stdout)?.decision === 'block') return said(stdout).reason ?? '';
  }
  return undefined;
}

/** A hook's stdout read as JSON, when it is JSON (Claude Code takes other output as plain text). */
function said(stdout) {
  try {
    return JSON.parse(stdout);
  } catch {
    return null;
  }
}
