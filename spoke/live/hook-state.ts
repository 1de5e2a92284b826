import * as z from 'zod';
import { jsonOrNull } from '../model/json';
import type { LiveState, LiveStateKind } from '../model/live';

// What a hook event says about a session. The hook writes Claude Code's event as it came; the
// meaning is decided here, where it can change without touching anyone's settings.json.

export const UNKNOWN_LIVE: LiveState = { state: 'UNKNOWN', since: null, detail: null };

/** A line of `<state>/states/<session>.jsonl` as server/bin/loom-hook.sh writes it. */
const HookLineSchema = z.object({
  t: z.string(),
  event: z.string(),
  loom_session: z.string().nullable(),
  /**
   * Claude Code's hook input, minus the prompt: a JSON string (the hook never splices stdin into
   * its line), or, in lines older hooks wrote, the object itself
   */
  input: z.preprocess(
    (v) => (typeof v === 'string' ? jsonOrNull(v) : v),
    z.looseObject({
      session_id: z.string(),
      message: z.string().optional(),
      notification_type: z.string().optional(),
      trigger: z.string().optional(),
      source: z.string().optional(),
      reason: z.string().optional(),
    }),
  ),
});
export type HookLine = z.infer<typeof HookLineSchema>;

/** The hook line a state file's line holds, or null when it holds none (the reader logs it). */
export function parseHookLine(text: string): HookLine | null {
  const parsed = HookLineSchema.safeParse(jsonOrNull(text));
  return parsed.success ? parsed.data : null;
}

/** The state after this event, or null when the event changes nothing. */
export function stateAfter(line: HookLine): LiveState | null {
  const since = Date.parse(line.t);
  const input = line.input;
  const at = (state: LiveStateKind, detail: string | null = null): LiveState => ({ state, since: Number.isNaN(since) ? null : since, detail });
  switch (line.event) {
    case 'UserPromptSubmit':
      return at('WORKING');
    case 'PreCompact':
      return at('COMPACTING', input.trigger ?? null);
    case 'Stop':
      return at('IDLE');
    case 'SessionStart':
      return at('IDLE', input.source ?? null);
    case 'SessionEnd':
      return at('CLOSED', input.reason ?? null);
    // written by the kernel (spoke/drive): a prompt it delivered through a Stop hook set the
    // session going again; a process it drives is at work or idle, or ended (its own hooks may
    // not be installed, or may not have said so)
    case 'LoomDelivered':
    case 'LoomDrivenWorking':
      return at('WORKING');
    case 'LoomDrivenIdle':
      return at('IDLE');
    case 'LoomDrivenEnd':
      return at('CLOSED', 'the process Loom drove ended');
    case 'Notification':
      // Claude Code notifies for a permission prompt, and when it has waited a while for input.
      if (input.notification_type === 'permission_prompt' || /permission/i.test(input.message ?? '')) return at('PERMISSION', input.message ?? null);
      if (input.notification_type === 'idle_prompt' || /waiting for your input/i.test(input.message ?? '')) return at('IDLE', input.message ?? null);
      return null;
    default:
      // SubagentStop: a subagent finished; its parent is still at work.
      return null;
  }
}
