import { parseArgs } from 'node:util';
import { rotateToken } from '../security/token';
import { resolveStateDir } from '../state-dir';
import { fail } from './fail';

// `loom token --rotate`: a new token; a running kernel picks it up at once and ends every
// session (browser cookie, WebSocket) opened with the old one.

export async function token(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { state: { type: 'string' }, rotate: { type: 'boolean' } } });
  if (!values.rotate) return fail('usage: loom token --rotate [--state DIR]');
  const stateDir = resolveStateDir(values.state);
  rotateToken(stateDir);
  process.stdout.write(`rotated the token in ${stateDir}; open \`loom url\` to sign in again\n`);
}
