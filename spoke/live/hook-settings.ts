import * as z from 'zod';

// Loom's entries in Claude Code's settings.json `hooks`. Adding them keeps every other setting
// and hook as it was and adds nothing twice; removing them takes out exactly what was added.
// A Loom entry is recognised by its command, which runs Loom's hook script.

/**
 * The events Loom's hooks run for. The live-state hook (a shell script that appends a line and
 * exits) records most; the action hook asks the kernel and waits (docs/hooks.md): for
 * PermissionRequest, and PreToolUse for questions and plans in the modes where no
 * PermissionRequest comes, an answer; for Stop, a prompt sent through Loom. The tool events tell
 * Loom a request it holds was answered at the terminal.
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
export type HookEvent = (typeof HOOK_EVENTS)[number];
/** Events whose Loom entry runs for some tools only: PreToolUse, for the two tools it may answer (docs/hooks.md). */
export const HOOK_MATCHERS: Partial<Record<HookEvent, string>> = { PreToolUse: 'AskUserQuestion|ExitPlanMode' };

export type HookKind = 'state' | 'action';
/** Which of Loom's hooks an event runs: Stop runs both (the state first: it must never wait). */
export const HOOK_KINDS: Record<HookEvent, HookKind[]> = {
  ...(Object.fromEntries(HOOK_EVENTS.map((e) => [e, ['state']])) as Record<HookEvent, HookKind[]>),
  Stop: ['state', 'action'],
  PermissionRequest: ['action'],
  PreToolUse: ['action'],
};
export const HOOK_SCRIPTS: Record<HookKind, string> = { state: 'loom-hook.sh', action: 'loom-action-hook.mjs' };
/** the action hook's name until 0.3: still recognised, so installing again updates it and uninstalling removes it */
const OLD_ACTION_SCRIPT = 'loom-permission-hook.mjs';

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

/** Which of Loom's hooks a command runs, or null for someone else's. */
function kindOf(command: string | undefined): HookKind | null {
  if (!command) return null;
  if (command.includes(HOOK_SCRIPTS.state)) return 'state';
  if (command.includes(HOOK_SCRIPTS.action) || command.includes(OLD_ACTION_SCRIPT)) return 'action';
  return null;
}
const isLoom = (command: string | undefined): boolean => kindOf(command) !== null;

/** The settings with Loom's hooks for every event, each running `commandFor(event, kind)` (an older Loom entry is updated in place). */
export function withLoomHooks(settings: Settings, commandFor: (event: HookEvent, kind: HookKind) => string): Settings {
  const hooks = { ...(settings.hooks ?? {}) };
  for (const event of HOOK_EVENTS) {
    for (const kind of HOOK_KINDS[event]) {
      const groups = hooks[event] ?? [];
      const command = commandFor(event, kind);
      if (groups.some((g) => g.hooks.some((h) => kindOf(h.command) === kind))) {
        // already there: brought up to date where it runs another Node, script or state dir
        hooks[event] = groups.map((g) => ({ ...g, hooks: g.hooks.map((h) => (kindOf(h.command) === kind ? { ...h, command } : h)) }));
        continue;
      }
      const matcher = HOOK_MATCHERS[event];
      hooks[event] = [...groups, { ...(matcher && { matcher }), hooks: [{ type: 'command', command }] }];
    }
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

/** Which events have every hook Loom installs for them (an older install may lack Stop's action hook). */
export function loomHookEvents(settings: Settings): string[] {
  return Object.entries(settings.hooks ?? {})
    .filter(([event, groups]) => {
      const kinds = new Set(groups.flatMap((g) => g.hooks.map((h) => kindOf(h.command))));
      const wanted = HOOK_KINDS[event as HookEvent] ?? [];
      return wanted.length > 0 && wanted.every((kind) => kinds.has(kind));
    })
    .map(([event]) => event);
}
