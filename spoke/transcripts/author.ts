import type { Author } from '../model/types';

// How the author of a user line is derived (DESIGN.md, "The event model"):
// 1. `promptSource` when Claude Code wrote one: typed/queued → human, sdk → sdk, system → system.
// 2. A line whose content is only tool_result blocks has no author: it is harness output.
// 3. Harness injections are system: `isMeta` lines (the "Caveat:" preamble, skill bodies),
//    compact summaries, `<task-notification>` / `<system-reminder>` wrappers, and the output of
//    local slash commands (`<local-command-stdout>` …).
// 4. Everything else is a human prompt (slash commands the user typed included).
// Peer mail (Loom's postal marker) joins this list when mail exists.

const PROMPT_SOURCES: Record<string, Author> = {
  typed: { kind: 'human' },
  queued: { kind: 'human' },
  sdk: { kind: 'sdk' },
  system: { kind: 'system' },
};

const HARNESS_PREFIXES = [
  '<task-notification>',
  '<system-reminder>',
  '<local-command-stdout>',
  '<local-command-stderr>',
  '<local-command-caveat>',
  '<bash-stdout>',
  '<bash-stderr>',
  '<user-prompt-submit-hook>',
];

export interface AuthorInput {
  promptSource: string | null;
  isMeta: boolean;
  isCompactSummary: boolean;
  /** the first text of the line, trimmed at the start */
  text: string | null;
  toolResultOnly: boolean;
}

export function deriveAuthor(input: AuthorInput): Author | null {
  if (input.promptSource && PROMPT_SOURCES[input.promptSource]) return PROMPT_SOURCES[input.promptSource];
  if (input.toolResultOnly) return null;
  if (input.isMeta || input.isCompactSummary) return { kind: 'system' };
  const text = input.text ?? '';
  if (HARNESS_PREFIXES.some((p) => text.startsWith(p))) return { kind: 'system' };
  return { kind: 'human' };
}

const INTERRUPT = /^\[Request interrupted by user[^\]]*\]/;

/** Claude Code writes this line itself when the user presses Esc: it ends the turn, opens none. */
export const isInterruptLine = (text: string | null): boolean => text !== null && INTERRUPT.test(text);

const COMMAND_NAME = /<command-name>([^<]*)<\/command-name>/;
const COMMAND_ARGS = /<command-args>([^<]*)<\/command-args>/;

const IDE_CONTEXT = /<ide_[a-z_]+>[\s\S]*?<\/ide_[a-z_]+>/g;
const BASH_INPUT = /^<bash-input>([\s\S]*?)<\/bash-input>/;

/**
 * The first line a person would recognise: `/cmd args` for slash commands, `! cmd` for shell
 * escapes, else the first non-empty line once IDE context (open file, selection) is set aside.
 */
export function promptLine(raw: string): string {
  const text = raw.replace(IDE_CONTEXT, '').trimStart();
  const bash = BASH_INPUT.exec(text);
  if (bash) return clip(`! ${bash[1].trim()}`);
  const command = COMMAND_NAME.exec(text);
  if (command) {
    const args = COMMAND_ARGS.exec(text)?.[1]?.trim();
    return clip(args ? `${command[1].trim()} ${args}` : command[1].trim());
  }
  const line = text.split('\n').find((l) => l.trim() !== '') ?? '';
  return clip(line.trim());
}

const clip = (s: string): string => (s.length > 200 ? `${s.slice(0, 199)}…` : s);
