import { parseArgs } from 'node:util';
import { readAway, writeAway } from '../../spoke/act/away';
import { resolveStateDir } from '../state-dir';
import { fail } from './fail';

// `loom away on | off | status`: whether this machine's person is away. The kernel reads the
// switch each time a subagent asks permission, so it works whether or not a kernel is running.

export async function away(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { state: { type: 'string' } } });
  const stateDir = resolveStateDir(values.state);
  const [what] = positionals;
  if (what !== 'on' && what !== 'off' && what !== 'status') return fail('usage: loom away on | off | status [--state DIR]');
  const state = what === 'status' ? readAway(stateDir, (m) => process.stderr.write(`loom: ${m}\n`)) : writeAway(stateDir, what === 'on');
  const since = state.since === null ? '' : ` since ${new Date(state.since).toISOString()}`;
  process.stdout.write(
    state.on
      ? `away${since}: a subagent's permission prompt waits for an answer from the dashboard (up to the hook's wait)\n`
      : `here${since}: only the main session's permission prompts wait for the dashboard; a subagent's goes straight to the terminal\n`,
  );
}
