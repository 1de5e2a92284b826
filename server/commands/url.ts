import { parseArgs } from 'node:util';
import { tokenLink } from '../security/access';
import { readToken } from '../security/token';
import { readClaim, resolveStateDir } from '../state-dir';
import { fail } from './fail';

// `loom url`: the link that opens the running kernel's dashboard, signed in.

export async function url(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { state: { type: 'string' } } });
  const stateDir = resolveStateDir(values.state);
  const claim = readClaim(stateDir);
  if (!claim) return fail(`no kernel is running on ${stateDir}; start one with: loom up`);
  process.stdout.write(`${tokenLink(claim.url, readToken(stateDir))}\n`);
}
