import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CanUseTool, PermissionMode, PermissionResult, PermissionUpdate } from '@anthropic-ai/claude-agent-sdk';
import type { Actions } from '../act/actions';
import type { SentPrompt, SessionHolder } from '../model/drive';
import type { LiveState } from '../model/live';
import { BadInputError, ConflictError, NotFoundError, UnavailableError } from '../model/source';
import type { AtomMeta } from '../model/types';
import { claudeExecutable } from './claude-executable';
import { DrivenSession } from './driven-session';
import { SentPrompts } from './sent-prompts';
import { startDirectory } from './start-directory';
import { type StopHookInput, TerminalDelivery } from './terminal-delivery';

// Sessions driven from Loom: started, sent to, interrupted and resumed on this machine. A session
// is held by one writer at a time: a process Loom started (the prompt goes into its input), a
// terminal (the prompt waits for its turn end, terminal-delivery.ts), or nothing (it may be
// resumed). Every action goes through Actions.act: once per idempotency key, in the audit log.

/** What driving needs to know of this machine's sessions (LocalSource gives it). */
export interface DrivenSessionsSource {
  /** the session's directory and Claude Code session ids (its newest last), or null when there is none */
  sessionFiles(key: string): Promise<{ dir: string; claudeIds: string[] } | null>;
  liveState(key: string): LiveState;
  keyOf(claudeSessionId: string): string;
  /** reads the session's files to their end now */
  catchUp(key: string): Promise<void>;
  /** the session's user lines with a timestamp at or after `since` */
  userAtomsSince(key: string, since: number): Promise<AtomMeta[]>;
  /** something about the session changed that is not in its transcript (its holder, its work) */
  touched(key: string): void;
  /** the directories sessions ran in */
  projectDirectories(first: number): { dir: string }[];
}

export interface DrivingOptions {
  stateDir: string;
  /** the `claude` to run; null looks it up on PATH */
  claudePath: string | null;
  now: () => number;
  log: (message: string) => void;
  /** how long the Stop hook of an idle session is held for a prompt while away */
  stopWaitMs: number;
  /** Claude Code's .claude.json files, whose accepted folders a session may start in (start-directory.ts) */
  trustFiles: string[];
}

/** The modes a session may be started in from Loom: nothing that skips permission prompts. */
export const START_MODES = ['default', 'acceptEdits', 'plan'] as const satisfies readonly PermissionMode[];

export interface StartRequest {
  dir: string;
  prompt: string;
  model: string | null;
  permissionMode: (typeof START_MODES)[number] | null;
}

/** How long a start waits for Claude Code to say which session it writes. */
const BEGIN_WAIT_MS = 60_000;
const MAX_PROMPT = 100_000;

export class Driving {
  readonly prompts: SentPrompts;
  private readonly delivery: TerminalDelivery;
  /** driven processes by Loom session key, from the moment the key is known */
  private readonly driven = new Map<string, DrivenSession>();
  /** every process started and not yet ended, a start still waiting for its key too */
  private readonly running = new Set<DrivenSession>();
  private readonly checking = new Map<string, Promise<void>>();
  private stopping = false;

  constructor(
    private readonly source: DrivenSessionsSource,
    private readonly actions: Actions,
    private readonly options: DrivingOptions,
  ) {
    this.prompts = new SentPrompts(options.now);
    this.delivery = new TerminalDelivery(this.prompts, {
      keyOf: (id) => source.keyOf(id),
      away: () => actions.away().on,
      waitMs: options.stopWaitMs,
      // the live-state hook has just written IDLE, and no UserPromptSubmit follows a Stop hook's prompt
      delivered: (claudeId) => this.appendHookLine(claudeId, 'LoomDelivered', null),
    });
  }

  /** Who holds the session's transcript now. */
  holder(key: string): SessionHolder {
    if (this.driven.get(key)?.alive) return 'LOOM';
    const live = this.source.liveState(key);
    return live.state === 'UNKNOWN' || live.state === 'CLOSED' ? 'NONE' : 'TERMINAL';
  }

  /** Is a process Loom drives in the middle of a turn? */
  working(key: string): boolean {
    return this.driven.get(key)?.working ?? false;
  }

  start(request: StartRequest, actor: string, idempotencyKey: string): Promise<{ key: string; prompt: SentPrompt }> {
    return this.actions.act(idempotencyKey, { actor, action: 'startSession', sessionKey: null, summary: `in ${request.dir}` }, async () => {
      const dir = startDirectory(
        request.dir,
        this.source.projectDirectories(Number.MAX_SAFE_INTEGER).map((d) => d.dir),
        this.options.trustFiles,
      );
      const text = promptText(request.prompt);
      const session = this.spawn(text, { cwd: dir, resume: null, key: null, model: request.model, permissionMode: request.permissionMode });
      const key = await this.began(session);
      return { key, prompt: this.sent(key, text, actor) };
    });
  }

  send(key: string, text: string, actor: string, idempotencyKey: string): Promise<SentPrompt> {
    return this.actions.act(idempotencyKey, { actor, action: 'sendPrompt', sessionKey: key, summary: summaryOf(text) }, async () => {
      const prompt = promptText(text);
      // a session Loom started a moment ago may not have been read yet: its process is enough
      const driven = this.driven.get(key);
      if (driven?.alive) {
        driven.send(prompt);
        return this.sent(key, prompt, actor);
      }
      await this.requireSession(key);
      const holder = this.holder(key);
      if (holder === 'NONE') throw new ConflictError('no process holds this session: resume it (resumeSession) to send it a prompt');
      const queued = this.prompts.add(key, prompt, actor, 'STOP_HOOK', this.queuedReason(key));
      this.delivery.queued(key);
      void this.check(key);
      return queued;
    });
  }

  interrupt(key: string, actor: string, idempotencyKey: string): Promise<boolean> {
    return this.actions.act(idempotencyKey, { actor, action: 'interrupt', sessionKey: key, summary: 'interrupt' }, async () => {
      const session = this.driven.get(key);
      if (!session?.alive) {
        await this.requireSession(key);
        throw new ConflictError(this.holder(key) === 'TERMINAL' ? 'a terminal holds this session: interrupt it there (Esc)' : 'no process runs this session');
      }
      const wasWorking = session.working;
      await session.interrupt();
      return wasWorking;
    });
  }

  resume(key: string, text: string, actor: string, idempotencyKey: string): Promise<SentPrompt> {
    return this.actions.act(idempotencyKey, { actor, action: 'resumeSession', sessionKey: key, summary: summaryOf(text) }, async () => {
      const prompt = promptText(text);
      const files = await this.requireSession(key);
      const holder = this.holder(key);
      if (holder !== 'NONE') {
        throw new ConflictError(
          holder === 'LOOM'
            ? 'Loom already runs this session: send it the prompt (sendPrompt)'
            : 'a terminal holds this session (its hooks say it is open): send the prompt instead, it is delivered at its turn end',
        );
      }
      const resumed = files.claudeIds.at(-1)!;
      const session = this.spawn(prompt, { cwd: files.dir, resume: resumed, key, model: null, permissionMode: null });
      await this.began(session);
      return this.sent(key, prompt, actor);
    });
  }

  /** Loom's Stop hook asks whether the session should go on with a queued prompt. */
  stopHookAsks(input: StopHookInput, signal: AbortSignal): Promise<string | null> {
    // a session Loom drives gets its prompts through its input, never through its Stop hook
    if (this.driven.get(this.source.keyOf(input.session_id))?.alive) return Promise.resolve(null);
    return this.delivery.stopHookAsks(input, signal);
  }

  /** The session changed (its transcript, its live state): prompts it was waiting for may have landed, or lost their way. */
  transcriptChanged(key: string): void {
    if (this.prompts.openSince(key) === null) return;
    void this.check(key).then(() => {
      // the terminal session ended without another turn end: its Stop hook will not come
      if (this.holder(key) === 'NONE') {
        this.prompts.drop(key, (p) => p.delivery === 'STOP_HOOK', 'the session ended at its terminal before a turn end took it: resume it to send it');
      }
    });
  }

  /** Stops every process Loom started: each turn interrupted, its input closed, killed if it lingers. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.delivery.stop();
    await Promise.all([...this.running].map((s) => s.stop()));
  }

  private spawn(
    firstPrompt: string,
    at: { cwd: string; resume: string | null; key: string | null; model: string | null; permissionMode: PermissionMode | null },
  ): DrivenSession {
    if (this.stopping) throw new UnavailableError('the kernel is stopping');
    const executable = claudeExecutable(this.options.claudePath);
    let key = at.key;
    const session: DrivenSession = new DrivenSession(firstPrompt, {
      executable,
      cwd: at.cwd,
      model: at.model,
      // always said: Claude Code would otherwise take the user's defaultMode, which may skip every prompt
      permissionMode: at.permissionMode ?? 'default',
      resume: at.resume,
      // LOOM_DRIVEN tells Loom's own hooks to leave this session's permissions to canUseTool
      env: { ...process.env, LOOM_DRIVEN: '1', ...(key && { LOOM_SESSION: key }) },
      canUseTool: (toolName, input, options) => this.asks(session, toolName, input, options),
      began: (claudeId) => {
        // at work on its first prompt; a resume's line also says which Loom session it continues
        // (the registry `loom run` uses), for the case where it opened a new file
        this.appendHookLine(claudeId, 'LoomDrivenWorking', at.key);
        key ??= this.source.keyOf(claudeId);
        this.driven.set(key, session);
        this.source.touched(key);
      },
      changed: () => {
        // the live state says so even where Claude Code's hooks are not installed
        if (session.claudeSessionId) this.appendHookLine(session.claudeSessionId, session.working ? 'LoomDrivenWorking' : 'LoomDrivenIdle', at.key);
        if (key) this.source.touched(key);
      },
      exited: (error) => {
        this.running.delete(session);
        if (error) this.options.log(`claude in ${at.cwd} ended: ${error}`);
        // said where a restarted kernel reads it too: nothing holds the session any more
        if (session.claudeSessionId) this.appendHookLine(session.claudeSessionId, 'LoomDrivenEnd', null);
        if (!key) return;
        if (this.driven.get(key) === session) this.driven.delete(key);
        void this.ended(key, error);
      },
    });
    this.running.add(session);
    // a resume holds its session from this moment: a second resume or a send finds it taken
    if (key) this.driven.set(key, session);
    return session;
  }

  /** Waits for Claude Code to say which session it writes; the Loom session key. */
  private async began(session: DrivenSession): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no session after ${BEGIN_WAIT_MS / 1000} s`)), BEGIN_WAIT_MS);
    });
    try {
      return this.source.keyOf(await Promise.race([session.began, late]));
    } catch (err) {
      this.options.log(`Claude Code did not start a session: ${(err as Error).message}`);
      void session.stop();
      throw new UnavailableError('Claude Code did not start: see the kernel log for what it said');
    } finally {
      clearTimeout(timer);
    }
  }

  /** canUseTool: the driven session's question becomes a request answered like any other. */
  private async asks(session: DrivenSession, toolName: string, input: Record<string, unknown>, options: Parameters<CanUseTool>[2]): Promise<PermissionResult> {
    const decision = await this.actions.driverAsks(
      {
        hook_event_name: 'CanUseTool',
        session_id: session.claudeSessionId ?? '',
        tool_name: toolName,
        tool_input: input,
        permission_suggestions: options.suggestions,
        agent_id: options.agentID,
      },
      options.signal,
    );
    if (decision?.behavior === 'allow') {
      // the rules are Claude Code's own suggestions (options.suggestions), handed back as they came
      const updatedPermissions = decision.updatedPermissions as PermissionUpdate[] | undefined;
      return { behavior: 'allow', updatedInput: decision.updatedInput ?? input, ...(updatedPermissions && { updatedPermissions }) };
    }
    if (decision?.behavior === 'deny') return { ...decision, message: decision.message ?? 'Denied through Loom' };
    return { behavior: 'deny', message: 'The request was withdrawn' };
  }

  private sent(key: string, text: string, actor: string): SentPrompt {
    const prompt = this.prompts.add(key, text, actor, 'INPUT');
    void this.check(key);
    return prompt;
  }

  /** Settles what the transcript shows, one check per session at a time. */
  private check(key: string): Promise<void> {
    const previous = this.checking.get(key) ?? Promise.resolve();
    const next = previous.then(async () => {
      const since = this.prompts.openSince(key);
      if (since === null) return;
      try {
        this.prompts.landed(key, await this.source.userAtomsSince(key, since));
      } catch (err) {
        this.options.log(`checking prompts sent to ${key}: ${(err as Error).message}`);
      }
    });
    this.checking.set(key, next);
    return next;
  }

  /** The process ended: what it held and never wrote was dropped. */
  private async ended(key: string, error: string | null): Promise<void> {
    await this.source.catchUp(key);
    await this.check(key);
    this.prompts.drop(key, (p) => p.delivery === 'INPUT', error ? `Claude Code stopped before reading it (${error})` : 'Claude Code ended before reading it');
    this.source.touched(key);
  }

  private queuedReason(key: string): string {
    const live = this.source.liveState(key);
    if (live.state === 'IDLE' && !this.actions.away().on) return 'the session is idle at its terminal: this is delivered when its next turn ends';
    return "waits for the session's turn to end, then is delivered by Loom's Stop hook";
  }

  /**
   * Writes a line to a Claude Code session's hook state log, as the hooks do (hook-state.ts reads
   * them): a driven process at work, idle, or ended; a Stop hook's prompt set the session going.
   */
  private appendHookLine(claudeId: string, event: 'LoomDrivenWorking' | 'LoomDrivenIdle' | 'LoomDrivenEnd' | 'LoomDelivered', key: string | null): void {
    const states = join(this.options.stateDir, 'states');
    const line = { t: new Date(this.options.now()).toISOString(), event, loom_session: key, input: JSON.stringify({ session_id: claudeId }) };
    try {
      mkdirSync(states, { recursive: true, mode: 0o700 });
      appendFileSync(join(states, `${claudeId}.jsonl`), `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch (err) {
      this.options.log(`could not write ${event} for ${claudeId}: ${(err as Error).message}`);
    }
  }

  private async requireSession(key: string): Promise<{ dir: string; claudeIds: string[] }> {
    const files = await this.source.sessionFiles(key);
    if (!files) throw new NotFoundError(`no session ${key} on this machine`);
    return files;
  }
}

function promptText(text: string): string {
  if (text.trim() === '') throw new BadInputError('the prompt is empty');
  if (text.length > MAX_PROMPT) throw new BadInputError(`the prompt has ${text.length} characters; at most ${MAX_PROMPT} are sent`);
  return text;
}

const summaryOf = (text: string): string => (text.length > 80 ? `${text.slice(0, 79)}…` : text).replace(/\s+/g, ' ');
