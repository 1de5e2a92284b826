import { join } from 'node:path';
import type { PermissionRequest } from '../model/act';
import { BadInputError, ConflictError, ForbiddenError, NotFoundError, UnavailableError } from '../model/source';
import { type ActionRecord, AuditLog } from './audit-log';
import { type Away, readAway, writeAway } from './away';
import type { Answer, Decision } from './decisions';
import { Outcomes } from './outcomes';
import { readPlanFile } from './plan-file';
import { type PermissionHookInput, PermissionRequests } from './requests';

// What this kernel does for its owner (and for hubs it trusts): holds Claude Code's permission
// requests and answers them, keeps the away switch, and writes every action to the audit log.
// An idempotency key makes a repeated action return what the first one did, logged once.

export interface ActionsOptions {
  stateDir: string;
  /** this kernel's host name, for the audit log */
  host: string;
  /** where Claude Code keeps plan files (`~/.claude/plans`) */
  plansDir: string;
  now: () => number;
  /** how long a hook is held waiting for an answer */
  answerWaitMs: number;
  log: (message: string) => void;
  /** the Loom session id (`host:key`) of a Claude Code session */
  sessionIdOf: (claudeSessionId: string) => string;
  /** a request of this Claude Code session opened or closed */
  changed: (claudeSessionId: string) => void;
}

/** How long a hook is held for an answer by default: within Claude Code's 600 s hook timeout. */
export const ANSWER_WAIT_MS = 570_000;

/**
 * Permission modes in which a question or a plan may reach Loom's PreToolUse hook without a
 * PermissionRequest after it: `dontAsk` refuses whatever would prompt, and in `auto` mode a
 * question has been seen to come through PreToolUse alone (docs/hooks.md). Elsewhere Claude Code
 * always asks for these two tools, and the PreToolUse hook lets the call go on at once.
 */
const NO_PERMISSION_REQUEST_MODES = new Set(['auto', 'dontAsk']);

export class Actions {
  readonly requests: PermissionRequests;
  private readonly audit: AuditLog;
  private readonly outcomes = new Outcomes();

  constructor(private readonly options: ActionsOptions) {
    this.requests = new PermissionRequests({ now: options.now, waitMs: options.answerWaitMs, changed: options.changed });
    this.audit = new AuditLog(join(options.stateDir, 'actions.jsonl'), options.log);
  }

  /**
   * The PermissionRequest hook asks. The main session shows its dialog while the hook runs, so
   * it is held there always; a subagent's dialog may wait for the hook, so it is held only while
   * the person is away (docs/hooks.md). Resolves with the decision, or null for none.
   */
  hookAsks(input: PermissionHookInput, signal: AbortSignal): Promise<Decision | null> {
    // PreToolUse comes before any dialog: held only where no PermissionRequest will follow
    if (input.hook_event_name === 'PreToolUse' && !NO_PERMISSION_REQUEST_MODES.has(input.permission_mode ?? '')) return Promise.resolve(null);
    if (input.agent_id && !this.away().on) return Promise.resolve(null);
    return this.requests.open(input, signal, this.planOf(input)).decision;
  }

  /** An ExitPlanMode's plan: the text Claude Code put in the input, or the plan file it names. */
  private planOf(input: PermissionHookInput): string | null {
    if (input.tool_name !== 'ExitPlanMode') return null;
    const { plan, planFilePath } = input.tool_input;
    if (typeof plan === 'string') return plan;
    return typeof planFilePath === 'string' ? readPlanFile(planFilePath, this.options.plansDir) : null;
  }

  /** A hook event that may show a request answered at the terminal. */
  observe(event: string, input: { session_id: string; agent_id?: string; tool_name?: string; tool_input?: unknown }): void {
    this.requests.observe(event, input);
  }

  /** Answers a request once; the same idempotency key again returns the first outcome. */
  answer(requestId: string, answer: Answer, actor: string, idempotencyKey: string): Promise<PermissionRequest> {
    return this.outcomes.once(idempotencyKey, () => {
      const known = this.requests.get(requestId);
      const entry = {
        actor,
        action: ACTION_NAMES[answer.kind],
        host: this.options.host,
        sessionId: known ? this.sessionIdOf(known) : null,
        requestId: `${this.options.host}:${requestId}`,
      };
      try {
        const request = this.requests.answer(requestId, answer, actor);
        this.record({ ...entry, summary: `${request.toolName}: ${request.answer}`, result: 'OK', message: null });
        return request;
      } catch (err) {
        this.record({ ...entry, summary: known?.toolName ?? 'unknown request', result: errorCode(err), message: (err as Error).message });
        throw err;
      }
    });
  }

  /**
   * Runs an action once per idempotency key and writes it to the audit log: OK, or the error
   * code it failed with. What `act` returns says which session it touched and how it went.
   */
  act<T>(idempotencyKey: string, entry: { actor: string; action: string; sessionKey: string | null; summary: string }, act: () => Promise<T>): Promise<T> {
    // a key answers for one kind of action: the same key on another mutation is another action
    return this.outcomes.once(`${entry.action}:${idempotencyKey}`, async () => {
      const { host } = this.options;
      const base = {
        actor: entry.actor,
        action: entry.action,
        summary: entry.summary,
        host,
        sessionId: entry.sessionKey && `${host}:${entry.sessionKey}`,
        requestId: null,
      };
      try {
        const done = await act();
        this.record({ ...base, result: 'OK', message: null });
        return done;
      } catch (err) {
        this.record({ ...base, result: errorCode(err), message: (err as Error).message });
        throw err;
      }
    });
  }

  /** A session Loom drives asks through canUseTool: held until answered or the call is aborted. */
  driverAsks(input: PermissionHookInput, signal: AbortSignal): Promise<Decision | null> {
    return this.requests.open(input, signal, this.planOf(input), 'sdk').decision;
  }

  /** The Loom session id (`host:key`) a request's Claude Code session is part of. */
  sessionIdOf(request: PermissionRequest): string {
    return this.options.sessionIdOf(request.claudeSessionId);
  }

  away(): Away {
    return readAway(this.options.stateDir, this.options.log);
  }

  setAway(on: boolean, actor: string): Away {
    const before = this.away();
    const away = writeAway(this.options.stateDir, on, this.options.now());
    if (before.on !== on)
      this.record({
        actor,
        action: 'setAway',
        host: this.options.host,
        sessionId: null,
        requestId: null,
        summary: on ? 'away' : 'back',
        result: 'OK',
        message: null,
      });
    return away;
  }

  /** Records an action this kernel took elsewhere (a hub's answer sent to a linked host). */
  record(entry: Omit<ActionRecord, 'seq' | 'at'>): ActionRecord {
    return this.audit.append({ ...entry, at: this.options.now() });
  }

  actions(since: number | null, first: number): ActionRecord[] {
    return this.audit.list(since, first);
  }

  stop(): void {
    this.requests.stop();
  }
}

const ACTION_NAMES: Record<Answer['kind'], string> = {
  allow: 'allowTool',
  deny: 'denyTool',
  answerQuestion: 'answerQuestion',
  approvePlan: 'approvePlan',
  rejectPlan: 'rejectPlan',
};

/** The API error code an action's failure is logged with. */
function errorCode(err: unknown): string {
  if (err instanceof ConflictError) return 'CONFLICT';
  if (err instanceof NotFoundError) return 'NOT_FOUND';
  if (err instanceof BadInputError) return 'BAD_USER_INPUT';
  if (err instanceof UnavailableError) return 'UNAVAILABLE';
  if (err instanceof ForbiddenError) return 'FORBIDDEN';
  return 'INTERNAL';
}
