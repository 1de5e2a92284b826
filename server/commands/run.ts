import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { resolveStateDir } from '../state-dir';
import { fail } from './fail';

// `loom run [--state DIR] -- claude …`: starts Claude Code with LOOM_SESSION set, so the hooks
// record which Loom session each transcript file belongs to and a resumed session's new file
// joins the session it continues. Resuming (`--resume ID`, `-r ID`) keeps that session's identity.

const SAFE_ID = /^[A-Za-z0-9._-]{1,128}$/;

export async function run(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { state: { type: 'string' } } });
  const [command = 'claude', ...args] = positionals;
  const identity = identityToResume(resolveStateDir(values.state), args) ?? randomUUID();
  const result = spawnSync(command, args, { stdio: 'inherit', env: { ...process.env, LOOM_SESSION: identity } });
  if (result.error) return fail(`could not start ${command}: ${result.error.message}`);
  process.exitCode = result.status ?? 1;
}

/** The Loom session of the Claude Code session being resumed: the one it ran under, else its own id. */
function identityToResume(stateDir: string, args: string[]): string | null {
  const flag = args.findIndex((a) => a === '--resume' || a === '-r');
  const id = flag >= 0 ? args[flag + 1] : undefined;
  if (!id || !SAFE_ID.test(id)) return null;
  let known: string | null = null;
  try {
    for (const line of readFileSync(join(stateDir, 'states', `${id}.jsonl`), 'utf8').split('\n')) {
      if (!line) continue;
      const session = (JSON.parse(line) as { loom_session?: unknown }).loom_session;
      if (typeof session === 'string' && SAFE_ID.test(session)) known = session;
    }
  } catch {
    // No hooks were seen for it: its own id names the session it continues.
  }
  return known ?? id;
}
