import { accessSync, constants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { UnavailableError } from '../model/source';

// The `claude` Loom runs for the sessions it drives: the user's own, with the user's own login
// (Loom handles no API key). The Agent SDK's bundled copy is not installed (docs/driving.md).

/** The configured executable, else the first `claude` on PATH; UNAVAILABLE when there is none. */
export function claudeExecutable(configured: string | null, path = process.env.PATH ?? ''): string {
  if (configured) {
    if (!isAbsolute(configured) || !runnable(configured)) {
      throw new UnavailableError(`the configured claude (${configured}) is not an executable file: fix --claude or LOOM_CLAUDE`);
    }
    return configured;
  }
  for (const dir of path.split(delimiter)) {
    // a relative entry would be looked up from the session's directory: never run a claude found there
    if (!isAbsolute(dir)) continue;
    const candidate = join(dir, 'claude');
    if (runnable(candidate)) return candidate;
  }
  throw new UnavailableError("Claude Code (claude) is not on the kernel's PATH: install it, or start Loom with --claude PATH");
}

function runnable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
