import { z } from 'zod';

// Loom's entries in Claude Code's settings.json `hooks`. Adding them keeps every other setting
// and hook as it was and adds nothing twice; removing them takes out exactly what was added.
// A Loom entry is recognised by its command, which runs Loom's hook script.

/**
 * The events Loom's live-state hook records (a shell script that appends a line and exits), and
 * PermissionRequest, whose hook asks the kernel and waits for an answer (docs/hooks.md), and
 * PreToolUse, the same hook for questions and plans in the modes where no PermissionRequest
 * comes. The tool events tell Loom a request it holds was answered at the terminal.
 */
export const HOOK_EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'Notification',
  'PreCompact',
  'Stop',
  'SubagentStop',
  'SessionEnd',
  'PostToolUse',
  'PostToolUseFailure',
  'PermissionDenied',
  'PermissionRequest',
  'PreToolUse',
] as const;
/** Events whose Loom entry runs for some tools only: PreToolUse, for the two tools it may answer (docs/hooks.md). */
export const HOOK_MATCHERS: Partial<Record<(typeof HOOK_EVENTS)[number], string>> = { PreToolUse: 'AskUserQuestion|ExitPlanMode' };
export const HOOK_SCRIPT = 'loom-hook.sh';
export const PERMISSION_HOOK_SCRIPT = 'loom-permission-hook.mjs';

const HookCommand = z.looseObject({ type: z.string(), command: z.string().optional() });
const MatcherGroup = z.looseObject({ matcher: z.string().optional(), hooks: z.array(HookCommand) });
const Settings = z.looseObject({ hooks: z.record(z.string(), z.array(MatcherGroup)).optional() });
type Settings = z.infer<typeof Settings>;

export class SettingsError extends Error {}

/** Parses settings.json text; refuses anything that is not a settings object, saying where. */
export function parseSettings(text: string, path: string): Settings {
  let raw: unknown;
  try {
    raw = text.trim() === '' ? {} : JSON.parse(text);
  } catch (err) {
    throw new SettingsError(`${path} is not valid JSON (${(err as Error).message}); fix it first, Loom left it untouched`);
  }
  const parsed = Settings.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new SettingsError(`${path}: ${issue.path.join('.') || '(top)'}: ${issue.message}; Loom left it untouched`);
  }
  return parsed.data;
}

const isLoom = (command: string | undefined): boolean => !!command && (command.includes(HOOK_SCRIPT) || command.includes(PERMISSION_HOOK_SCRIPT));

/** The settings with Loom's hook for every event, each running `commandFor(event)` (an older Loom entry is updated in place). */
export function withLoomHooks(settings: Settings, commandFor: (event: string) => string): Settings {
  const hooks = { ...(settings.hooks ?? {}) };
  for (const event of HOOK_EVENTS) {
    const groups = hooks[event] ?? [];
    const command = commandFor(event);
    if (groups.some((g) => g.hooks.some((h) => isLoom(h.command)))) {
      // already there: brought up to date where it runs another Node, script or state dir
      hooks[event] = groups.map((g) => ({ ...g, hooks: g.hooks.map((h) => (isLoom(h.command) ? { ...h, command } : h)) }));
      continue;
    }
    const matcher = HOOK_MATCHERS[event];
    hooks[event] = [...groups, { ...(matcher && { matcher }), hooks: [{ type: 'command', command }] }];
  }
  return { ...settings, hooks };
}

/** The settings without any Loom hook; groups and events left empty by that go too. */
export function withoutLoomHooks(settings: Settings): Settings {
  if (!settings.hooks) return settings;
  const hooks: Record<string, z.infer<typeof MatcherGroup>[]> = {};
  for (const [event, groups] of Object.entries(settings.hooks)) {
    const kept = groups
      .map((g) => ({ ...g, hooks: g.hooks.filter((h) => !isLoom(h.command)) }))
      .filter((g, i) => g.hooks.length > 0 || groups[i].hooks.length === 0);
    if (kept.length > 0) hooks[event] = kept;
  }
  const { hooks: _, ...rest } = settings;
  return Object.keys(hooks).length > 0 ? { ...rest, hooks } : rest;
}

/** Which events have Loom's hook. */
export function loomHookEvents(settings: Settings): string[] {
  return Object.entries(settings.hooks ?? {})
    .filter(([, groups]) => groups.some((g) => g.hooks.some((h) => isLoom(h.command))))
    .map(([event]) => event);
}
