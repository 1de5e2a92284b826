import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { BadInputError } from '../model/source';

// Where a session may be started from Loom. Claude Code run through the SDK asks no folder-trust
// question, and a folder's own .claude/settings.json may run hooks: so Loom starts only where
// Claude Code has worked before, where a session ran (the transcripts say) or whose trust the
// person accepted at a terminal (Claude Code's own record, `projects.<dir>.hasTrustDialogAccepted`
// in .claude.json).

/** The directory, as an absolute path with links resolved, or BAD_USER_INPUT saying why not. */
export function startDirectory(dir: string, sessionDirs: Iterable<string>, trustFiles: string[]): string {
  if (!isAbsolute(dir)) throw new BadInputError(`"${dir}" is not an absolute path: give the project's full directory`);
  let real: string;
  try {
    real = realpathSync(dir);
    if (!statSync(real).isDirectory()) throw new Error('not a directory');
  } catch {
    throw new BadInputError(`${dir} is not a directory on this machine`);
  }
  const known = new Set([...sessionDirs].flatMap((d) => [d, realOrSelf(d)]));
  if (known.has(dir) || known.has(real) || trustFiles.some((file) => trusts(file, dir) || trusts(file, real))) return real;
  throw new BadInputError(`Claude Code has not worked in ${dir} yet: run claude there once and accept the folder, then start it from Loom`);
}

function trusts(file: string, dir: string): boolean {
  try {
    const config = JSON.parse(readFileSync(file, 'utf8')) as { projects?: Record<string, { hasTrustDialogAccepted?: unknown }> };
    return config.projects?.[dir]?.hasTrustDialogAccepted === true;
  } catch {
    return false; // no such file, or not one Loom can read: it trusts nothing
  }
}

function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
