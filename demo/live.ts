// Keeps a few demo sessions going at a human pace, so a fresh dashboard has something live
// to show: whole turns, appended one line at a time. At each turn's end the session asks Loom's
// Stop hook, as a terminal session with `loom hooks install` does: a prompt sent from the
// dashboard comes back as the hook's blocking reason, and the session answers it.

import { appendFile } from 'node:fs/promises';
import type { DemoHookStates } from './hook-states';
import { Rng } from './random';
import { CLAUDE_CODE_VERSION, type TranscriptRecord } from './records';
import { playReply, playTurn } from './sessions';
import { followUps } from './story/follow-ups';
import { projectAt } from './story/projects';
import type { DemoProject } from './story/types';
import { Transcript } from './transcript';
import type { DemoSession, DemoTree } from './tree';

export interface LiveAppends {
  /** Stops appending; resolves once a write in flight has finished. */
  stop(): Promise<void>;
}

/** One session being continued: the records of its current turn still to be written. */
interface Feed {
  session: DemoSession;
  project: DemoProject;
  pending: TranscriptRecord[];
  /** the uuid the next generated turn chains to */
  leaf: string;
  nextFollowUp: number;
  promptWrittenAt: number;
  restingUntil: number;
  /** the last turn went on because the Stop hook blocked it */
  stopHookActive: boolean;
}

/** What Loom's Stop hook answers at a turn's end: the reason to block with (a prompt sent from Loom), or null. */
export type StopHook = (input: { session_id: string; stop_hook_active: boolean }) => Promise<string | null>;

/**
 * `hookStates`: where to write the hook lines a turn would have made (a prompt submitted, a turn's
 * stop); `stopHook`: what the action hook asks at a turn's end.
 */
export function startLiveAppends(
  tree: DemoTree,
  opts: { intervalMs?: number; seed?: number; hookStates?: DemoHookStates; stopHook?: StopHook } = {},
): LiveAppends {
  const intervalMs = opts.intervalMs ?? 1_500;
  const stopHook: StopHook = opts.stopHook ?? (() => Promise.resolve(null));
  const rng = new Rng(opts.seed ?? 7);
  const feeds: Feed[] = tree.sessions.flatMap((session) => {
    const project = projectAt(session.cwd);
    if (!session.live || project === undefined) return [];
    const feed: Feed = {
      session,
      project,
      pending: [],
      leaf: session.lastUuid,
      nextFollowUp: rng.int(0, followUps.length - 1),
      promptWrittenAt: 0,
      restingUntil: 0,
      stopHookActive: false,
    };
    return [feed];
  });

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();

  const appendNext = async (): Promise<void> => {
    const now = Date.now();
    const ready = feeds.filter((feed) => feed.restingUntil <= now);
    if (ready.length === 0) return;
    const feed = rng.pick(ready);
    if (feed.pending.length === 0) queueTurn(feed, rng, now);
    const record = stamp(feed, feed.pending.shift()!, now);
    try {
      await appendFile(feed.session.file, `${JSON.stringify(record)}\n`);
      if (record.uuid !== undefined) feed.session.lastUuid = record.uuid;
      // a Stop hook's feedback is no typed prompt: no UserPromptSubmit (Loom marks the session working itself)
      if (isPrompt(record) && record.isMeta !== true) await opts.hookStates?.write(feed.session.sessionId, 'UserPromptSubmit', {}, now);
      if (record.subtype === 'turn_duration') await opts.hookStates?.write(feed.session.sessionId, 'Stop', {}, now);
    } catch {
      // The tree may have been removed under us (tests, a user clearing a temp dir): keep quiet,
      // and ask no Stop hook for a turn end that was never written.
      return;
    }
    if (record.subtype !== 'turn_duration') return;
    const reason: string | null = await stopHook({ session_id: feed.session.sessionId, stop_hook_active: feed.stopHookActive });
    feed.stopHookActive = reason !== null;
    if (reason === null) feed.restingUntil = now + intervalMs * rng.int(3, 8);
    else queueAnswer(feed, rng, now, reason);
  };

  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(
      () => {
        inFlight = appendNext()
          .catch(() => undefined)
          .finally(schedule);
      },
      intervalMs * (0.5 + rng.next()),
    );
    timer.unref();
  };
  schedule();

  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await inFlight;
    },
  };
}

function queueTurn(feed: Feed, rng: Rng, now: number): void {
  const { session, project } = feed;
  const { sessionId, cwd, gitBranch } = session;
  const ctx = { sessionId, cwd, gitBranch, version: CLAUDE_CODE_VERSION };
  const t = new Transcript(ctx, rng, project.model, { startMs: now, leaf: feed.leaf });
  const script = followUps[feed.nextFollowUp % followUps.length]!;
  feed.nextFollowUp += 1;
  playTurn(t, script(project.facts));
  feed.pending = t.records;
  feed.leaf = t.leaf!;
}

/** The turn a prompt sent from Loom starts: its feedback line, then an answer that says this is the demo. */
function queueAnswer(feed: Feed, rng: Rng, now: number, reason: string): void {
  const { session, project } = feed;
  const { sessionId, cwd, gitBranch } = session;
  const t = new Transcript({ sessionId, cwd, gitBranch, version: CLAUDE_CODE_VERSION }, rng, project.model, { startMs: now, leaf: feed.leaf });
  const asked = reason.replace(/^\[loom:[^\]]*\] /, '').split('\n')[0];
  const at = t.stopHookFeedback(reason);
  playReply(
    t,
    `This is Loom's demo, so no model reads your prompt, but it came the way a real one does: through the Stop hook, at the end of my turn. You asked: “${asked}”.`,
    at,
  );
  feed.pending = t.records;
  feed.leaf = t.leaf!;
}

/** Dates a queued record to the moment it is written, so the live session reads in real time. */
function stamp(feed: Feed, record: TranscriptRecord, now: number): TranscriptRecord {
  const timestamp = new Date(now).toISOString();
  if (record.type === 'file-history-snapshot') {
    return { ...record, snapshot: { ...(record.snapshot as object), timestamp } };
  }
  if (isPrompt(record)) feed.promptWrittenAt = now;
  if (record.subtype === 'turn_duration') return { ...record, timestamp, durationMs: now - feed.promptWrittenAt };
  return { ...record, timestamp };
}

/** A prompt, typed or a Stop hook's feedback: a user line whose content is text, not tool results. */
function isPrompt(record: TranscriptRecord): boolean {
  return record.type === 'user' && typeof (record.message as { content?: unknown }).content === 'string';
}
