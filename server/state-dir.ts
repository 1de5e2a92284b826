import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import * as z from 'zod';
import { tempWriter } from '../spoke/store/atomic-file';

// The state dir holds what a kernel keeps between runs, and `kernel.json`: the claim of the one
// kernel running on it (pid and port), which `loom status` reads to find it.

export function resolveStateDir(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return flag;
  if (env.LOOM_STATE_DIR) return env.LOOM_STATE_DIR;
  return join(env.XDG_STATE_HOME || join(homedir(), '.local', 'state'), 'loom');
}

const KernelClaim = z.object({
  pid: z.number().int(),
  port: z.number().int(),
  host: z.string(),
  url: z.string(),
  startedAt: z.string(),
});
export type KernelClaim = z.infer<typeof KernelClaim>;

const claimPath = (stateDir: string): string => join(stateDir, 'kernel.json');

/** The running kernel's claim on this state dir, or null when none is running. */
export function readClaim(stateDir: string): KernelClaim | null {
  let text: string;
  try {
    text = readFileSync(claimPath(stateDir), 'utf8');
  } catch {
    return null;
  }
  const parsed = KernelClaim.safeParse(safeJson(text));
  return parsed.success && isAlive(parsed.data.pid) ? parsed.data : null;
}

export class StateDirBusyError extends Error {}

/** Claims the state dir for this process; refuses when another live kernel holds it. */
export function claimStateDir(stateDir: string, claim: KernelClaim): () => void {
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
  const path = claimPath(stateDir);
  // Exclusive create, so two kernels starting at once cannot both win; a claim left by a
  // process that died is removed and the create tried once more.
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(path, `${JSON.stringify(claim, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw err;
      const holder = readClaim(stateDir);
      if (holder) {
        throw new StateDirBusyError(
          `another Loom kernel (pid ${holder.pid}, ${holder.url}) is using the state dir ${stateDir}; stop it, or give this one its own --state DIR`,
        );
      }
      rmSync(path, { force: true });
    }
  }
  removeStaleTemps(stateDir);
  return () => {
    if (readClaim(stateDir)?.pid === process.pid) rmSync(path, { force: true });
  };
}

/**
 * Temp files whose writer died mid-write (a kill -9) stay forever otherwise. Only a dead
 * process's: `loom token --rotate` or `loom hooks install` may be writing one right now.
 */
function removeStaleTemps(stateDir: string): void {
  for (const name of readdirSync(stateDir)) {
    const pid = tempWriter(name);
    if (pid !== null && !isAlive(pid)) rmSync(join(stateDir, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
