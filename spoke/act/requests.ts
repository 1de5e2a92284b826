import { randomUUID } from 'node:crypto';
import type { PermissionRequest, PermissionUpdate, RequestState } from '../model/act';
import { ConflictError, NotFoundError } from '../model/source';
import { type Answer, type Decision, decisionFor } from './decisions';

// The permission requests Claude Code's PermissionRequest hook holds open on this machine, each
// waiting for the first answer: Loom's (an answer through the API) or the terminal's (which Loom
// learns from a later hook, or from the hook giving up). A request answers once; whoever comes
// second learns who came first. Closed requests are kept a while so a late answer can be told.

/** What the PermissionRequest hook sends on stdin (the fields Loom reads). */
export interface PermissionHookInput {
  /** PermissionRequest, or PreToolUse for a question or a plan (the same hook script) */
  hook_event_name?: string;
  session_id: string;
  tool_name: string;
  tool_input: Record<string, unknown>;
  permission_suggestions?: PermissionUpdate[];
  agent_id?: string;
  cwd?: string;
  permission_mode?: string;
}

export class RequestClosedError extends ConflictError {
  constructor(readonly request: PermissionRequest) {
    super(closedMessage(request));
  }
}

const CLOSED_KEPT = 500;
/** tools whose input Claude Code changes on the way (the answers, the plan file): matched by name */
const INPUT_CHANGES = new Set(['AskUserQuestion', 'ExitPlanMode']);

interface Waiter {
  request: PermissionRequest;
  resolve: (decision: Decision | null) => void;
  timer: NodeJS.Timeout | undefined;
}

export class PermissionRequests {
  private readonly waiting = new Map<string, Waiter>();
  /** closed requests, oldest first */
  private readonly closed = new Map<string, PermissionRequest>();
  /** the last request closed in each Claude Code session: every read of the feed asks for it */
  private readonly lastClosed = new Map<string, PermissionRequest>();

  constructor(
    private readonly options: {
      now: () => number;
      /** how long a hook is held before it gives no decision (Claude Code's own dialog stays) */
      waitMs: number;
      /** a request of this Claude Code session opened or closed */
      changed: (claudeSessionId: string) => void;
    },
  ) {}

  /**
   * A hook asks. Resolves with the decision to print, or null for none (the terminal answered,
   * the hook went away, the wait ran out). `signal` aborts when the hook's connection closes.
   */
  open(
    input: PermissionHookInput,
    signal: AbortSignal,
    plan: string | null = null,
    via: PermissionRequest['via'] = 'hook',
  ): { request: PermissionRequest; decision: Promise<Decision | null> } {
    const request: PermissionRequest = {
      id: randomUUID(),
      claudeSessionId: input.session_id,
      agentId: input.agent_id ?? null,
      toolName: input.tool_name,
      input: input.tool_input,
      suggestions: input.permission_suggestions ?? [],
      plan,
      cwd: input.cwd ?? null,
      permissionMode: input.permission_mode ?? null,
      via,
      createdAt: this.options.now(),
      state: 'PENDING',
      closedAt: null,
      answeredBy: null,
      answer: null,
    };
    const decision = new Promise<Decision | null>((resolve) => {
      // no terminal asks a driven session's question: it waits for Loom's answer or an interrupt
      const timer = via === 'hook' ? setTimeout(() => this.close(request.id, 'EXPIRED', null, null), this.options.waitMs) : undefined;
      this.waiting.set(request.id, { request, resolve, timer });
    });
    // the hook process ended (Claude Code killed it, or the terminal's deny aborted the turn)
    signal.addEventListener('abort', () => this.close(request.id, 'WITHDRAWN', null, null), { once: true });
    if (signal.aborted) this.close(request.id, 'WITHDRAWN', null, null);
    this.options.changed(request.claudeSessionId);
    return { request, decision };
  }

  /** Answers a pending request; throws RequestClosedError when it is closed, AnswerError when the answer does not fit. */
  answer(id: string, answer: Answer, actor: string): PermissionRequest {
    const waiter = this.waiting.get(id);
    if (!waiter) {
      const closed = this.closed.get(id);
      if (closed) throw new RequestClosedError(closed);
      throw new RequestNotFoundError(`no permission request ${id} on this machine`);
    }
    const decision = decisionFor(waiter.request, answer);
    return this.close(id, 'ANSWERED', actor, summary(answer), decision);
  }

  /**
   * A hook said the session moved past a request: the tool ran or failed (so it was allowed,
   * at the terminal), or a turn ended or began. Closes what that answers.
   */
  observe(event: string, input: { session_id: string; agent_id?: string; tool_name?: string; tool_input?: unknown }): void {
    for (const { request } of [...this.waiting.values()]) {
      if (request.claudeSessionId !== input.session_id) continue;
      if (answersRequest(request, event, input)) this.close(request.id, 'ANSWERED_AT_TERMINAL', 'terminal', null);
    }
  }

  get(id: string): PermissionRequest | null {
    return this.waiting.get(id)?.request ?? this.closed.get(id) ?? null;
  }

  /** Pending requests, oldest first. */
  pending(): PermissionRequest[] {
    return [...this.waiting.values()].map((w) => w.request);
  }

  /** The newest request of these Claude Code sessions: a pending one first, else the last closed. */
  latestOf(claudeSessionIds: string[]): PermissionRequest | null {
    let pending: PermissionRequest | null = null;
    // few are pending at a time: the closed ones are looked up, not walked
    for (const { request } of this.waiting.values()) {
      if (claudeSessionIds.includes(request.claudeSessionId) && (!pending || request.createdAt >= pending.createdAt)) pending = request;
    }
    if (pending) return pending;
    let closed: PermissionRequest | null = null;
    for (const id of claudeSessionIds) {
      const request = this.lastClosed.get(id);
      if (request && (!closed || request.createdAt >= closed.createdAt)) closed = request;
    }
    return closed;
  }

  /** Lets every held hook go without a decision (the kernel is stopping). */
  stop(): void {
    for (const id of [...this.waiting.keys()]) this.close(id, 'WITHDRAWN', null, null);
  }

  /** Drops the oldest closed request, and its session's last one when it was that. */
  private forget(id: string): void {
    const request = this.closed.get(id)!;
    this.closed.delete(id);
    if (this.lastClosed.get(request.claudeSessionId)?.id === id) this.lastClosed.delete(request.claudeSessionId);
  }

  private close(id: string, state: RequestState, by: string | null, answer: string | null, decision: Decision | null = null): PermissionRequest {
    const waiter = this.waiting.get(id);
    if (!waiter) return this.closed.get(id)!;
    clearTimeout(waiter.timer);
    this.waiting.delete(id);
    const request: PermissionRequest = { ...waiter.request, state, closedAt: this.options.now(), answeredBy: by, answer };
    this.closed.set(id, request);
    const last = this.lastClosed.get(request.claudeSessionId);
    if (!last || request.createdAt >= last.createdAt) this.lastClosed.set(request.claudeSessionId, request);
    if (this.closed.size > CLOSED_KEPT) this.forget(this.closed.keys().next().value!);
    waiter.resolve(decision);
    this.options.changed(request.claudeSessionId);
    return request;
  }
}

export class RequestNotFoundError extends NotFoundError {}

function answersRequest(request: PermissionRequest, event: string, input: { agent_id?: string; tool_name?: string; tool_input?: unknown }): boolean {
  // a driven session's hooks fire too, but only canUseTool's answer settles what it asked
  if (request.via === 'sdk') return false;
  // a turn that begins or ends is past every question the last one asked
  if (event === 'UserPromptSubmit' || event === 'Stop' || event === 'SessionEnd') return request.agentId === null;
  if (event !== 'PostToolUse' && event !== 'PostToolUseFailure' && event !== 'PermissionDenied') return false;
  if ((input.agent_id ?? null) !== request.agentId || input.tool_name !== request.toolName) return false;
  return INPUT_CHANGES.has(request.toolName) || canonical(input.tool_input) === canonical(request.input);
}

/** JSON with keys sorted, so two equal inputs compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

function summary(answer: Answer): string {
  switch (answer.kind) {
    case 'allow':
      return answer.always ? 'allowed always' : 'allowed';
    case 'deny':
      return `denied: ${answer.message}`;
    case 'answerQuestion':
      return `answered: ${answer.answers.map((a) => a.selected.join(', ')).join(' / ')}`;
    case 'approvePlan':
      return answer.mode ? `plan approved (${answer.mode})` : 'plan approved';
    case 'rejectPlan':
      return `plan rejected: ${answer.message}`;
  }
}

function closedMessage(request: PermissionRequest): string {
  switch (request.state) {
    case 'ANSWERED':
      return `already answered by ${request.answeredBy} (${request.answer})`;
    case 'ANSWERED_AT_TERMINAL':
      return 'already answered at the terminal';
    case 'WITHDRAWN':
      return 'Claude Code stopped asking (answered at the terminal, or the turn was interrupted)';
    case 'EXPIRED':
      return 'no longer held: Loom stopped waiting; answer it at the terminal';
    default:
      return 'already closed';
  }
}
