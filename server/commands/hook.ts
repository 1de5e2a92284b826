import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { resolveStateDir } from '../state-dir';
import { HOOK_SCRIPT_PATH } from './hooks';

// `loom hook <Event>`: the same as the installed hook command, for scripts and tests.

export async function hook(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { state: { type: 'string' } } });
  const result = spawnSync('sh', [HOOK_SCRIPT_PATH, positionals[0] ?? 'unknown', resolveStateDir(values.state)], { stdio: 'inherit' });
  process.exitCode = result.status ?? 0;
}
