// Writes the demo's ~/.claude/projects tree: seven Quayside sessions across four repositories,
// spread over the two days before `now`.

import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { projectSlug, sessionFile, subagentFile } from './layout';
import { Rng, uuid } from './random';
import { CLAUDE_CODE_VERSION, type TranscriptRecord } from './records';
import { generateSession } from './sessions';
import { apiProject } from './story/api';
import { infraProject } from './story/infra';
import type { DemoProject } from './story/types';
import { webProject } from './story/web';
import { workerProject } from './story/worker';

export interface DemoSession {
  /** the project folder's name, see projectSlug */
  project: string;
  sessionId: string;
  file: string;
  cwd: string;
  gitBranch: string;
  /** the chain's current leaf; startLiveAppends moves it forward as it writes */
  lastUuid: string;
  subagentFiles: string[];
  /** the session ends on an AskUserQuestion nobody has answered */
  awaitsAnswer: boolean;
  /** startLiveAppends keeps this session going */
  live: boolean;
}

export interface DemoTree {
  root: string;
  sessions: DemoSession[];
}

interface LineupEntry {
  project: DemoProject;
  topic: number;
  hoursAgo: number;
  title?: string;
  subagent?: boolean;
  compactAfterTurn?: number;
  question?: boolean;
  live?: boolean;
}

const LINEUP: readonly LineupEntry[] = [
  { project: apiProject, topic: 0, hoursAgo: 50, subagent: true, title: 'Berth search pagination' },
  { project: webProject, topic: 0, hoursAgo: 27, title: 'Calendar week view' },
  { project: apiProject, topic: 1, hoursAgo: 6, compactAfterTurn: 1 },
  { project: workerProject, topic: 0, hoursAgo: 3, live: true },
  { project: infraProject, topic: 0, hoursAgo: 1.6, live: true },
  { project: workerProject, topic: 1, hoursAgo: 1.2, live: true },
  { project: webProject, topic: 1, hoursAgo: 0.6, question: true },
];

const HOUR_MS = 3_600_000;

export async function writeDemoTree(root: string, opts: { seed?: number; now?: Date } = {}): Promise<DemoTree> {
  const rng = new Rng(opts.seed ?? 1);
  const now = (opts.now ?? new Date()).getTime();
  const sessions: DemoSession[] = [];
  for (const entry of LINEUP) {
    const topic = entry.project.topics[entry.topic]!;
    const sessionId = uuid(rng);
    const ctx = { sessionId, cwd: entry.project.cwd, gitBranch: topic.gitBranch, version: CLAUDE_CODE_VERSION };
    const session = generateSession(
      {
        ctx,
        model: entry.project.model,
        startMs: now - entry.hoursAgo * HOUR_MS,
        turns: topic.turns,
        title: entry.title,
        subagent: entry.subagent ? topic.subagent : undefined,
        compactAfterTurn: entry.compactAfterTurn,
        question: entry.question ? topic.question : undefined,
      },
      rng,
    );

    const file = sessionFile(root, ctx.cwd, sessionId);
    await writeTranscript(file, session.records);
    const subagentFiles: string[] = [];
    for (const subagent of session.subagents) {
      const path = subagentFile(root, ctx.cwd, sessionId, subagent.agentId);
      await writeTranscript(path, subagent.records);
      subagentFiles.push(path);
    }
    sessions.push({
      project: projectSlug(ctx.cwd),
      sessionId,
      file,
      cwd: ctx.cwd,
      gitBranch: ctx.gitBranch,
      lastUuid: session.lastUuid,
      subagentFiles,
      awaitsAnswer: entry.question === true,
      live: entry.live === true,
    });
  }
  return { root, sessions };
}

/** Writes one JSONL file and dates it to its last record, as if it had been written back then. */
async function writeTranscript(file: string, records: readonly TranscriptRecord[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, records.map((record) => `${JSON.stringify(record)}\n`).join(''));
  const lastTimestamp = records.findLast((record) => record.timestamp !== undefined)?.timestamp;
  if (lastTimestamp !== undefined) {
    const at = new Date(lastTimestamp);
    await utimes(file, at, at);
  }
}
