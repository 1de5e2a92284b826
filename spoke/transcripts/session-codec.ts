import { StoredGoals } from '../goals/stored-goals';
import type { Blobs } from '../store/blob-store';
import { array, boolean, type Checked, literal, nullable, number, object, string } from '../store/json-check';
import { MessageLedger } from '../usage/ledger';
import type { SleepFacts, TranscriptSession } from './session';

// What a session keeps across a restart, in one place: the index cache's shape of it (checked
// on read), and the two ways across. A field added to a session that must outlive a restart is
// added here three times, side by side, or the types refuse.

const TranscriptFile = object({
  path: string,
  fsid: string,
  role: literal('main', 'subagent'),
  bytes: number,
  lines: number,
  rereads: number,
  archived: boolean,
});

/** where a blob is in the file beside the cache (BlobStore) */
const StoredBlob = object({ at: number, bytes: number });
/** where a MessageLedger's rows are, and the model names they index */
const StoredLedger = object({ at: number, bytes: number, models: array(nullable(string)) });

export const CachedSession = object({
  key: string,
  project: string,
  parentKey: nullable(string),
  cwd: nullable(string),
  gitBranch: nullable(string),
  customTitle: nullable(string),
  aiTitle: nullable(string),
  generation: number,
  epoch: number,
  updatedAt: number,
  models: array(string),
  parseErrors: array(object({ file: string, line: number, offset: number, reason: string })),
  files: array(TranscriptFile),
  /** goals: where their JSON is beside the cache, read and checked when first asked for (StoredGoals) */
  facts: object({ atomCount: number, turnCount: number, startedAt: number, name: string, leaf: nullable(string), goals: StoredBlob }),
  usage: StoredLedger,
  subagentUsage: StoredLedger,
});
export type CachedSession = Checked<typeof CachedSession>;

/** The session's own fields a restart brings back (its key, project, files and parent are placed by the catalog). */
type Restored = Pick<
  TranscriptSession,
  'cwd' | 'gitBranch' | 'customTitle' | 'aiTitle' | 'generation' | 'epoch' | 'updatedAt' | 'models' | 'parseErrors' | 'sleeping' | 'usage' | 'subagentUsage'
>;

/** A session as the cache keeps it, with the facts it has asleep (or would have). */
export function encodeSession(s: TranscriptSession, facts: SleepFacts, blobs: Blobs): CachedSession {
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
    parseErrors: s.parseErrors,
    files: [...s.files.values()],
    facts: { ...rest, goals: goals.save(blobs) },
    usage: s.usage.save(blobs),
    subagentUsage: s.subagentUsage.save(blobs),
  };
}

/** What a cached session puts back on its session, asleep. */
export function decodeSession(c: CachedSession, blobs: Blobs): Restored {
  return {
    cwd: c.cwd,
    gitBranch: c.gitBranch,
    customTitle: c.customTitle,
    aiTitle: c.aiTitle,
    generation: c.generation,
    epoch: c.epoch,
    updatedAt: c.updatedAt,
    models: new Set(c.models),
    parseErrors: c.parseErrors,
    sleeping: { ...c.facts, goals: StoredGoals.stored(blobs, c.facts.goals) },
    usage: MessageLedger.stored(blobs, c.usage),
    subagentUsage: MessageLedger.stored(blobs, c.subagentUsage),
  };
}

/** Moves a cached session's blob references by `by` bytes: its blobs were appended to another store at that offset. */
export function moveBlobs(c: CachedSession, by: number): void {
  for (const blob of [c.facts.goals, c.usage, c.subagentUsage]) blob.at += by;
}
