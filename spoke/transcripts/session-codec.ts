import { z } from 'zod';
import { StoredGoals } from '../goals/stored-goals';
import { MessageLedger } from '../usage/ledger';
import type { LedgerStore } from '../usage/ledger-store';
import type { SleepFacts, TranscriptSession } from './session';

// What a session keeps across a restart, in one place: the index cache's shape of it
// (zod-validated on read), and the two ways across. A field added to a session that must outlive
// a restart is added here three times, side by side, or the types refuse.

const TranscriptFile = z.object({
  path: z.string(),
  fsid: z.string(),
  role: z.enum(['main', 'subagent']),
  bytes: z.number(),
  lines: z.number(),
  rereads: z.number(),
  archived: z.boolean().default(false),
});

/** where a MessageLedger's rows are in the usage file beside the cache (LedgerStore), and its model names */
const StoredLedger = z.object({ models: z.array(z.string().nullable()), at: z.number(), values: z.number() });

export const CachedSession = z.object({
  key: z.string(),
  project: z.string(),
  parentKey: z.string().nullable(),
  cwd: z.string().nullable(),
  gitBranch: z.string().nullable(),
  customTitle: z.string().nullable(),
  aiTitle: z.string().nullable(),
  generation: z.number(),
  epoch: z.number(),
  updatedAt: z.number(),
  models: z.array(z.string()),
  recordTypes: z.record(z.string(), z.number()),
  parseErrors: z.array(z.object({ file: z.string(), line: z.number(), offset: z.number(), reason: z.string() })),
  files: z.array(TranscriptFile),
  /** goals: their JSON, checked when first read (StoredGoals), not at every restart */
  facts: z.object({ atomCount: z.number(), turnCount: z.number(), startedAt: z.number(), name: z.string(), goals: z.string() }),
  usage: StoredLedger,
  subagentUsage: StoredLedger,
});
export type CachedSession = z.infer<typeof CachedSession>;

/** The session's own fields a restart brings back (its key, project, files and parent are placed by the catalog). */
type Restored = Pick<
  TranscriptSession,
  | 'cwd'
  | 'gitBranch'
  | 'customTitle'
  | 'aiTitle'
  | 'generation'
  | 'epoch'
  | 'updatedAt'
  | 'models'
  | 'recordTypes'
  | 'parseErrors'
  | 'sleeping'
  | 'usage'
  | 'subagentUsage'
>;

/** A session as the cache keeps it, with the facts it has asleep (or would have). */
export function encodeSession(s: TranscriptSession, facts: SleepFacts, ledgers: LedgerStore): CachedSession {
  const { goals, ...rest } = facts;
  return {
    key: s.key,
    project: s.project,
    parentKey: s.parentKey,
    cwd: s.cwd,
    gitBranch: s.gitBranch,
    customTitle: s.customTitle,
    aiTitle: s.aiTitle,
    generation: s.generation,
    epoch: s.epoch,
    updatedAt: s.updatedAt,
    models: [...s.models],
    recordTypes: Object.fromEntries(s.recordTypes),
    parseErrors: s.parseErrors,
    files: [...s.files.values()],
    facts: { ...rest, goals: goals.json() },
    usage: s.usage.save(ledgers),
    subagentUsage: s.subagentUsage.save(ledgers),
  };
}

/** What a cached session puts back on its session, asleep. */
export function decodeSession(c: CachedSession, ledgers: LedgerStore): Restored {
  return {
    cwd: c.cwd,
    gitBranch: c.gitBranch,
    customTitle: c.customTitle,
    aiTitle: c.aiTitle,
    generation: c.generation,
    epoch: c.epoch,
    updatedAt: c.updatedAt,
    models: new Set(c.models),
    recordTypes: new Map(Object.entries(c.recordTypes)),
    parseErrors: c.parseErrors,
    sleeping: { ...c.facts, goals: StoredGoals.fromJson(c.facts.goals) },
    usage: MessageLedger.stored(ledgers, c.usage),
    subagentUsage: MessageLedger.stored(ledgers, c.subagentUsage),
  };
}
