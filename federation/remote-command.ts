import { shellQuote } from './remote-exec';

// The command a hub runs on a linked host, and that host's state dir, come from the hub's own
// hosts.json only (never from a request) and are kept to a grammar no shell can read twice: the
// command is `loom` or an absolute path, then plain arguments; each word is quoted on its own.

const WORD = /^[A-Za-z0-9._/=:@-]+$/;

export const COMMAND_RULE = 'a command is "loom" or an absolute path, then arguments of letters, digits and ._/=:@- only';
export const STATE_DIR_RULE = 'a state dir is an absolute path of letters, digits and ._/=:@- only';

const wordsOf = (command: string): string[] => command.split(' ').filter((word) => word !== '');

export function isRemoteCommand(command: string): boolean {
  const [program, ...args] = wordsOf(command);
  return program !== undefined && (program === 'loom' || program.startsWith('/')) && [program, ...args].every((word) => WORD.test(word));
}

export const isRemoteStateDir = (dir: string): boolean => dir.startsWith('/') && WORD.test(dir);

/** The command as separate quoted words for the remote's shell. */
export const quotedCommand = (command: string): string => wordsOf(command).map(shellQuote).join(' ');
