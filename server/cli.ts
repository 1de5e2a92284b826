import { VERSION } from '../spoke/version';
import { fail } from './commands/fail';
import { USAGE, usageOf } from './commands/usage';

// The `loom` command. Each subcommand loads only what it needs: the server stack takes seconds
// to load and `loom status` should answer at once.

const [command, ...rest] = process.argv.slice(2);
try {
  await dispatch();
} catch (err) {
  // every subcommand parses strictly: an unknown option or a missing value is one line, no stack
  if ((err as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS_')) fail(`${argumentRefusal(err as Error)}; usage: ${usageOf(command)}`);
  throw err;
}

async function dispatch(): Promise<void> {
  if (command === 'up') {
    // Before graphql-js loads: outside production it checks each failed type test for a second copy
    // of itself, a tenth of a hub's work on a merged list. Only the kernel: `loom run` passes its
    // environment on to Claude Code and what it runs.
    process.env.NODE_ENV ??= 'production';
    await (await import('./commands/up')).up(rest);
  } else if (command === 'status') await (await import('./commands/status')).status(rest);
  else if (command === 'url') await (await import('./commands/url')).url(rest);
  else if (command === 'token') await (await import('./commands/token')).token(rest);
  else if (command === 'hooks') await (await import('./commands/hooks')).hooks(rest);
  else if (command === 'watch') await (await import('./commands/watch')).watch(rest);
  else if (command === 'away') await (await import('./commands/away')).away(rest);
  else if (command === 'hook') await (await import('./commands/hook')).hook(rest);
  else if (command === 'link') await (await import('./commands/link')).link(rest);
  else if (command === 'unlink') await (await import('./commands/link')).unlink(rest);
  else if (command === 'hosts') await (await import('./commands/link')).hosts(rest);
  else if (command === 'run') await (await import('./commands/run')).run(rest);
  else if (command === '--version' || command === '-v') process.stdout.write(`${VERSION}\n`);
  else if (!command || command === 'help' || command === '--help' || command === '-h') process.stdout.write(USAGE);
  else fail(`unknown command "${command}"\n\n${USAGE}`);
}

/** parseArgs' reason, with the whole argument an unknown option came in (`-oProxyCommand=…`, not `-o`). */
function argumentRefusal(err: Error): string {
  const [reason] = err.message.split('. ');
  const option = /^Unknown option '(.*)'$/.exec(reason)?.[1];
  if (option) return `unknown option "${rest.find((arg) => arg.startsWith(option)) ?? option}"`;
  return reason.charAt(0).toLowerCase() + reason.slice(1);
}
