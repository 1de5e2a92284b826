import { closeSync, openSync, readSync, realpathSync } from 'node:fs';
import { sep } from 'node:path';

// ExitPlanMode's plan, when the hook's input names its file but does not carry its text (Claude
// Code writes plans to ~/.claude/plans/ and, in current versions, copies the text into the input).
// Read only from inside the plans folder, whatever the path says, and only so much of it.

const MAX_PLAN_BYTES = 1 << 20;

/** The plan's text, or null when the path is not a readable file inside `plansDir`. */
export function readPlanFile(path: string, plansDir: string): string | null {
  try {
    const real = realpathSync(path);
    if (!real.startsWith(realpathSync(plansDir) + sep)) return null;
    const fd = openSync(real, 'r');
    try {
      const buffer = Buffer.alloc(MAX_PLAN_BYTES);
      const read = readSync(fd, buffer, 0, MAX_PLAN_BYTES, 0);
      return buffer.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}
