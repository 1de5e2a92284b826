// What Loom's Claude Code hooks would have written for the demo's sessions, so the tabs' live
// chips show working, needs you, idle and closed in demo mode as they do on a machine with the
// hooks installed. Each line is written as server/bin/loom-hook.sh writes it: one JSON line in
// <state dir>/states/<session id>.jsonl, Claude Code's hook input as a JSON string.

import { appendFile, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { DemoSession, DemoTree } from './tree';

export type HookEvent = 'UserPromptSubmit' | 'Notification' | 'Stop' | 'SessionEnd';

export class DemoHookStates {
  constructor(private readonly stateDir: string) {}

  private file(sessionId: string): string {
    return join(this.stateDir, 'states', `${sessionId}.jsonl`);
  }

  /** Appends one hook line, dated as the hook dates it (to the second). */
  async write(sessionId: string, event: HookEvent, fields: Record<string, string>, atMs: number): Promise<void> {
    const t = `${new Date(atMs).toISOString().slice(0, 19)}Z`;
    const input = JSON.stringify({ session_id: sessionId, hook_event_name: event, ...fields });
    await mkdir(join(this.stateDir, 'states'), { recursive: true, mode: 0o700 });
    await appendFile(this.file(sessionId), `${JSON.stringify({ t, event, loom_session: null, input })}\n`, { mode: 0o600 });
  }

  /**
   * Where each session of a fresh demo tree stands: the one that asks a question waits on you,
   * the ones still going rest between turns, the others were closed.
   */
  async writeTree(tree: DemoTree, nowMs: number): Promise<void> {
    for (const session of tree.sessions) await this.write(session.sessionId, ...standing(session), nowMs);
  }

  /** Removes the lines written for the tree's sessions (the demo's tree goes with it). */
  async remove(tree: DemoTree): Promise<void> {
    await Promise.all(tree.sessions.map((s) => rm(this.file(s.sessionId), { force: true })));
  }
}

function standing(session: DemoSession): [HookEvent, Record<string, string>] {
  if (session.awaitsAnswer) return ['Notification', { notification_type: 'permission_prompt', message: 'Claude needs your permission to use AskUserQuestion' }];
  if (session.live) return ['Stop', {}];
  return ['SessionEnd', { reason: 'prompt_input_exit' }];
}
