import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import {
  HOOK_EVENTS,
  type HookEvent,
  type HookKind,
  loomHookEvents,
  parseSettings,
  SettingsError,
  withLoomHooks,
  withoutLoomHooks,
} from '../../spoke/live/hook-settings';
import { readFileIfPresent, writeFileAtomic } from '../../spoke/store/atomic-file';
import { resolveStateDir } from '../state-dir';
import { fail } from './fail';

// `loom hooks install | uninstall | status`: Loom's hook command in Claude Code's settings.json.
// Install backs the file up first and keeps its original bytes, so uninstall can give back the
// very same file when nothing else changed meanwhile.

export const HOOK_SCRIPT_PATH = new URL('../bin/loom-hook.sh', import.meta.url).pathname;
export const ACTION_HOOK_PATH = new URL('../bin/loom-action-hook.mjs', import.meta.url).pathname;

const settingsPath = (): string => join(process.env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude'), 'settings.json');
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;
const pristinePath = (stateDir: string): string => join(stateDir, 'hooks-pristine.json');
/** settings.json keeps the permissions it had */
const modeOf = (path: string): number => (existsSync(path) ? statSync(path).mode & 0o777 : 0o644);

export async function hooks(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { state: { type: 'string' } } });
  const stateDir = resolveStateDir(values.state);
  const path = settingsPath();
  try {
    if (positionals[0] === 'install') return install(path, stateDir);
    if (positionals[0] === 'uninstall') return uninstall(path, stateDir);
    if (positionals[0] === 'status') return status(path);
  } catch (err) {
    if (err instanceof SettingsError) return fail(err.message);
    throw err;
  }
  fail('usage: loom hooks install | uninstall | status [--state DIR]');
}

function install(path: string, stateDir: string): void {
  const text = readFileIfPresent(path);
  const settings = parseSettings(text ?? '', path);
  // the action hook waits on the kernel over HTTP: plain Node, this very binary; the state hook appends a line in sh
  const command = (event: HookEvent, kind: HookKind) =>
    kind === 'action'
      ? `${quote(process.execPath)} ${quote(ACTION_HOOK_PATH)} ${quote(stateDir)}${event === 'Stop' ? ' stop' : ''}`
      : `sh ${quote(HOOK_SCRIPT_PATH)} ${event} ${quote(stateDir)}`;
  const next = withLoomHooks(settings, command);
  if (isDeepStrictEqual(next, settings)) {
    process.stdout.write(`Loom's hooks are already in ${path}\n`);
    return;
  }
  // a new user may install hooks before the first `loom up` made the state dir, or Claude Code its own
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  mkdirSync(dirname(path), { recursive: true });
  if (text !== null) writeFileAtomic(`${path}.loom-backup-${new Date().toISOString().replace(/[:.]/g, '-')}`, text);
  if (!existsSync(pristinePath(stateDir))) writeFileAtomic(pristinePath(stateDir), JSON.stringify({ existed: text !== null, text: text ?? '' }));
  writeFileAtomic(path, `${JSON.stringify(next, null, 2)}\n`, modeOf(path));
  process.stdout.write(`added Loom's hook to ${path} for ${HOOK_EVENTS.join(', ')}\n`);
}

function uninstall(path: string, stateDir: string): void {
  const text = readFileIfPresent(path);
  if (text === null) {
    process.stdout.write(`${path} does not exist: nothing to remove\n`);
    return;
  }
  const settings = parseSettings(text, path);
  const cleaned = withoutLoomHooks(settings);
  if (isDeepStrictEqual(cleaned, settings)) {
    process.stdout.write(`Loom's hooks are not in ${path}\n`);
    return;
  }
  const pristine = readPristine(stateDir);
  if (pristine && isDeepStrictEqual(cleaned, parseSettings(pristine.text, path))) {
    // Nothing else changed since install: give back the very same bytes (or no file at all).
    if (pristine.existed) writeFileAtomic(path, pristine.text, modeOf(path));
    else rmSync(path);
  } else {
    writeFileAtomic(path, `${JSON.stringify(cleaned, null, 2)}\n`, modeOf(path));
  }
  rmSync(pristinePath(stateDir), { force: true });
  process.stdout.write(`removed Loom's hooks from ${path}\n`);
}

function status(path: string): void {
  const text = readFileIfPresent(path);
  const found = text === null ? [] : loomHookEvents(parseSettings(text, path));
  const events = HOOK_EVENTS.filter((e) => found.includes(e));
  const missing = HOOK_EVENTS.filter((e) => !events.includes(e));
  if (events.length === 0) process.stdout.write(`Loom's hooks are not installed in ${path}; run: loom hooks install\n`);
  else if (missing.length === 0) process.stdout.write(`Loom's hooks are installed in ${path} for ${events.join(', ')}\n`);
  else process.stdout.write(`Loom's hooks are installed in ${path} for ${events.join(', ')}; missing: ${missing.join(', ')} (run: loom hooks install)\n`);
}

function readPristine(stateDir: string): { existed: boolean; text: string } | null {
  try {
    const value = JSON.parse(readFileSync(pristinePath(stateDir), 'utf8'));
    return typeof value?.text === 'string' && typeof value?.existed === 'boolean' ? value : null;
  } catch {
    return null;
  }
}
