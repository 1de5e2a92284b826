import type { CanUseTool, PermissionMode, Query } from '@anthropic-ai/claude-agent-sdk';
import { PromptQueue } from './prompt-queue';

// One Claude Code process Loom drives through the Agent SDK: prompts go into its input stream,
// its messages say which Claude Code session it writes and when a turn ends, and it ends when
// its input ends, when it is stopped, or when it dies. The transcript it writes is read like
// any other; this only tracks the process.

export interface DrivenSessionOptions {
  executable: string;
  cwd: string;
  model: string | null;
  permissionMode: PermissionMode | null;
  /** the Claude Code session to continue, for a resume */
  resume: string | null;
  /** the environment Claude Code (and the hooks it runs) gets */
  env: Record<string, string | undefined>;
  canUseTool: CanUseTool;
  /** Claude Code said which session it writes (its init message) */
  began: (claudeSessionId: string) => void;
  /** working or not changed: a prompt went in, a turn ended */
  changed: () => void;
  /** the process is gone; `error` says why when it did not end on its own */
  exited: (error: string | null) => void;
}

/** The Agent SDK loads with the first session Loom drives: it is a tenth of the kernel's imports. */
let agentSdk: Promise<typeof import('@anthropic-ai/claude-agent-sdk')> | null = null;

/** How long a stopped process gets to end its turn and exit before it is killed. */
const STOP_GRACE_MS = 5000;

export class DrivenSession {
  private readonly input = new PromptQueue();
  private readonly abort = new AbortController();
  private readonly run: Promise<Query>;
  private readonly done: Promise<void>;
  claudeSessionId: string | null = null;
  working = true;
  alive = true;
  /** the Claude Code session it writes, once its init message says; rejects if it ends first */
  readonly began: Promise<string>;
  private beginning!: { resolve: (id: string) => void; reject: (error: Error) => void };

  constructor(
    firstPrompt: string,
    private readonly options: DrivenSessionOptions,
  ) {
    this.began = new Promise((resolve, reject) => {
      this.beginning = { resolve, reject };
    });
    this.input.push(firstPrompt);
    agentSdk ??= import('@anthropic-ai/claude-agent-sdk');
    this.run = agentSdk.then(({ query }) =>
      query({
        prompt: this.input,
        options: {
          pathToClaudeCodeExecutable: options.executable,
          cwd: options.cwd,
          env: options.env,
          abortController: this.abort,
          canUseTool: options.canUseTool,
          ...(options.model && { model: options.model }),
          ...(options.permissionMode && { permissionMode: options.permissionMode }),
          ...(options.resume && { resume: options.resume }),
        },
      }),
    );
    this.done = this.follow();
  }

  /** Queues a prompt: Claude Code reads it at its next turn or tool boundary. */
  send(text: string): void {
    this.input.push(text);
    this.setWorking(true);
  }

  async interrupt(): Promise<void> {
    await (await this.run).interrupt();
  }

  /** Ends the process: its turn is interrupted, its input closed, and it is killed if it lingers. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    // armed first: a process that does not even answer the interrupt is killed all the same
    const grace = setTimeout(() => this.abort.abort(), STOP_GRACE_MS);
    if (this.working) await Promise.race([this.run.then((run) => run.interrupt()).catch(() => {}), this.done]);
    this.input.end();
    await this.done;
    clearTimeout(grace);
  }

  private async follow(): Promise<void> {
    let error: string | null = null;
    try {
      for await (const message of await this.run) {
        if (message.type === 'system' && message.subtype === 'init') {
          if (this.claudeSessionId !== message.session_id) {
            this.claudeSessionId = message.session_id;
            this.options.began(message.session_id);
            this.beginning.resolve(message.session_id);
          }
        } else if (message.type === 'result') {
          this.setWorking(false);
        } else if (message.type === 'assistant') {
          this.setWorking(true);
        }
      }
    } catch (err) {
      error = this.abort.signal.aborted ? null : (err as Error).message;
    }
    this.alive = false;
    this.working = false;
    this.input.end();
    this.beginning.reject(new Error(error ?? 'Claude Code ended before it began a session'));
    this.options.exited(error);
  }

  private setWorking(working: boolean): void {
    if (this.working === working) return;
    this.working = working;
    this.options.changed();
  }
}
