import { join } from 'node:path';
import * as z from 'zod';
import { readFileIfPresent, writeFileAtomic } from '../store/atomic-file';

// "Away": the person is not at this machine, so a permission prompt Claude Code shows only after
// its hook returns (a background subagent's) is held for an answer from elsewhere. Kept in
// `<state>/away.json` and read when a request comes, so `loom away` works with or without a
// running kernel and the dashboard's switch and the CLI never disagree.

const AwayFile = z.object({ on: z.boolean(), since: z.number() });
export type Away = { on: boolean; since: number | null };

const awayPath = (stateDir: string): string => join(stateDir, 'away.json');

/** The switch as the file says; off when there is no file, or one Loom cannot read (logged). */
export function readAway(stateDir: string, log: (message: string) => void = () => {}): Away {
  const text = readFileIfPresent(awayPath(stateDir));
  if (text === null) return { on: false, since: null };
  try {
    return AwayFile.parse(JSON.parse(text));
  } catch {
    log(`${awayPath(stateDir)} is not a file Loom wrote; taken as "not away" (loom away on|off writes it again)`);
    return { on: false, since: null };
  }
}

export function writeAway(stateDir: string, on: boolean, now = Date.now()): Away {
  const current = readAway(stateDir);
  if (current.on === on && current.since !== null) return current;
  const away = { on, since: now };
  writeFileAtomic(awayPath(stateDir), `${JSON.stringify(away)}\n`);
  return away;
}
