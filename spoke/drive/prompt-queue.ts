import type { SDKUserMessage } from '@anthropic-ai/claude-agent-sdk';
import { ConflictError } from '../model/source';

// The input stream of a session Loom drives: the Agent SDK reads prompts from this async
// iterable as Claude Code asks for them, so a prompt pushed mid-turn waits here (or in Claude
// Code's own queue) until the next tool boundary, as a prompt typed at the terminal does.

export class PromptQueue implements AsyncIterable<SDKUserMessage> {
  private readonly waiting: SDKUserMessage[] = [];
  private wake: (() => void) | null = null;
  private ended = false;

  push(text: string): void {
    if (this.ended) throw new ConflictError('this Claude Code process is ending and takes no more input: resume the session once it has');
    this.waiting.push({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null });
    this.wake?.();
  }

  /** No more input: Claude Code finishes what it has and exits. */
  end(): void {
    this.ended = true;
    this.wake?.();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  async *[Symbol.asyncIterator](): AsyncIterator<SDKUserMessage> {
    for (;;) {
      const next = this.waiting.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = null;
    }
  }
}
