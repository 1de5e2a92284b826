import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';

// Drives test/stand-ins/claude.mjs: Claude Code's permission flow for one tool call, through the
// hooks `loom hooks install` wrote into a settings.json.

const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');
const STAND_IN = join(import.meta.dirname, '..', 'stand-ins', 'claude.mjs');

/** Runs the real `loom hooks install` for a state dir into `<claudeDir>/settings.json`. */
export function installHooks(claudeDir: string, stateDir: string): void {
  const installed = spawnSync(process.execPath, [LOOM, 'hooks', 'install', '--state', stateDir], {
    env: { ...process.env, CLAUDE_CONFIG_DIR: claudeDir },
    encoding: 'utf8',
  });
  expect(installed.status, installed.stderr).toBe(0);
}

/**
 * Removes a test's dir holding a state dir the installed hooks write into: a hook a stand-in
 * started can still be writing there after its terminal is stopped, and a removal that meets
 * the new file (ENOTEMPTY) tries again.
 */
export function removeHookedDir(path: string): void {
  rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
}

export interface StandInResult {
  /** who answered first: the PermissionRequest hook, the PreToolUse hook, or the terminal */
  by: 'hook' | 'pre-tool-use' | 'terminal' | null;
  decision: { behavior: string; message?: string; updatedInput?: Record<string, unknown>; updatedPermissions?: unknown[] } | null;
  /** the input the tool ran with */
  input: Record<string, unknown>;
  /** how each PermissionRequest hook ended (null when one outlived the stand-in's patience) */
  hooks: { code: number | null; signal: string | null; out: string; ms: number }[] | null;
}

export interface ToolCall {
  tool: string;
  input: object;
  suggestions?: object[];
  /** a subagent asks (its dialog waits for the hook) */
  agent?: string;
  /** the person at the terminal answers, after `terminalAfter` ms; never when absent */
  terminal?: 'allow' | 'deny';
  terminalAfter?: number;
  /** the session's permission mode; `default` when absent */
  mode?: string;
}

/** Starts the stand-in asking for one tool call in session `s1` of `transcript`; `result` is what it printed. */
export function askPermission(claudeDir: string, transcript: string, call: ToolCall): { child: ChildProcess; result: Promise<StandInResult> } {
  const args = [
    '--settings',
    join(claudeDir, 'settings.json'),
    '--transcript',
    transcript,
    '--session',
    's1',
    '--tool',
    call.tool,
    '--input',
    JSON.stringify(call.input),
  ];
  if (call.suggestions) args.push('--suggestions', JSON.stringify(call.suggestions));
  if (call.agent) args.push('--agent', call.agent);
  if (call.terminal) args.push('--terminal', call.terminal, '--terminal-after', String(call.terminalAfter ?? 0));
  if (call.mode) args.push('--mode', call.mode);
  const child = spawn(process.execPath, [STAND_IN, ...args, '--parent', 'p1'], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout!.on('data', (chunk) => {
    out += chunk;
  });
  const result = new Promise<StandInResult>((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as StandInResult) : reject(new Error(`the stand-in exited ${code}: ${out}`)))),
  );
  return { child, result };
}
