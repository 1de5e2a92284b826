import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LiveSpan } from '../model/live';
import { type HookLine, parseHookLine, stateAfter } from './hook-state';

// The history of a session's hook log as spans: while Claude Code waited for a permission, and
// while it compacted. LiveStates keeps only the state now; the timeline needs every span, so it
// reads the log again (the files are small and only ever appended to).

/** Hook times are whole seconds: a transcript line in the same second may precede the event. */
const HOOK_RESOLUTION_MS = 1000;

/**
 * Spans of PERMISSION and COMPACTING, oldest first. A span ends at the next state the hooks
 * report, or sooner at the first transcript line written after it (`atomTimes`, sorted): the
 * hooks say nothing when a permission is granted or a compaction finishes, but the transcript
 * moving on does.
 */
export function liveSpans(lines: HookLine[], atomTimes: number[]): LiveSpan[] {
  const spans: LiveSpan[] = [];
  let open: LiveSpan | null = null;
  for (const line of lines) {
    const next = stateAfter(line);
    if (!next || next.since === null) continue;
    if (open && open.kind === next.state) continue; // a repeated notification: still the same wait
    if (open) open.end ??= next.since;
    open = null;
    if (next.state === 'PERMISSION' || next.state === 'COMPACTING') {
      open = { kind: next.state, t: next.since, end: null };
      spans.push(open);
    }
  }
  for (const span of spans) {
    const moved = firstAfter(atomTimes, span.t + HOOK_RESOLUTION_MS);
    if (moved !== null && (span.end === null || moved < span.end)) span.end = moved;
  }
  return spans;
}

/** The first time at or after `t` in a sorted list. */
function firstAfter(sorted: number[], t: number): number | null {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] < t) lo = mid + 1;
    else hi = mid;
  }
  return lo < sorted.length ? sorted[lo] : null;
}

/** The lines of `<dir>/<sessionId>.jsonl` that are hook lines; none when there is no log. */
export async function readHookLog(dir: string, sessionId: string): Promise<HookLine[]> {
  let text: string;
  try {
    text = await readFile(join(dir, `${sessionId}.jsonl`), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const lines: HookLine[] = [];
  for (const raw of text.split('\n')) {
    if (!raw) continue;
    const parsed = parseHookLine(raw);
    if (parsed) lines.push(parsed);
  }
  return lines;
}
