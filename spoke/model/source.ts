import type { Goal } from './goal';
import type { LiveSpan } from './live';
import type { SearchRequest, SearchResult } from './search';
import type { Atom, AtomMeta, ContentBlock, HostInfo, KernelInfo, SessionSummary, TrustTier, Turn } from './types';
import type { UsageQuery, UsageRow, UsageTotals } from './usage';

// The seam between the API and whatever holds sessions. The schema calls a Source and nothing
// else; LocalSource serves this machine's transcripts, and a hub serves a merge of several.

export interface SessionFilter {
  /** the session's working directory, or a directory above it */
  dir?: string | null;
  /** case-insensitive text in the session's name */
  text?: string | null;
  updatedSince?: number | null;
}

export interface SessionPage {
  sessions: SessionSummary[];
  totalCount: number;
  hasNextPage: boolean;
  /** opaque cursor of each session, same order */
  cursors: string[];
}

export type ResetReason = 'FENCE_MISSING' | 'EPOCH_MISMATCH' | 'GENERATION_MISMATCH' | 'SEQUENCE_RESET';

export interface StreamFrame {
  host: string;
  key: string;
  /** SNAPSHOT: the state to start from (replace what you hold when reset); DELTA: atoms after the
   * cursor; STOPPED: the session ended and nothing is left, the last frame */
  kind: 'SNAPSHOT' | 'DELTA' | 'STOPPED';
  reset: boolean;
  reason: ResetReason | null;
  atoms: Atom[];
  /** the sequence of the last atom the client now holds: resume with it */
  cursor: number;
  epoch: number;
  generation: number;
}

export interface SessionChange {
  kind: 'ADDED' | 'UPDATED' | 'REMOVED';
  host: string;
  key: string;
  session: SessionSummary | null;
}

export interface StreamRequest {
  host: string;
  key: string;
  cursor: number | null;
  epoch: number | null;
  generation: number | null;
}

/** One page of a session's active path, oldest first. */
export interface TranscriptPage {
  entries: AtomMeta[];
  epoch: number;
  generation: number;
  maxSequence: number;
  hasOlder: boolean;
  /** pass as beforeSequence for the page before this one; null when there is none */
  nextBeforeSequence: number | null;
}

export interface EventFilter {
  type: AtomMeta['type'] | null;
  /** the anchor uuid of a turn (the last part of its id) */
  turnAnchor: string | null;
  since: number | null;
  afterSequence: number | null;
  limit: number;
}

/** A goal and the session it belongs to. */
export interface GoalRef {
  host: string;
  key: string;
  goal: Goal;
}

/** Top-level goals in three columns by rolled-up status, newest first. */
export interface Feed {
  working: GoalRef[];
  blocked: GoalRef[];
  completed: GoalRef[];
}

/** A session's feed goals changed: all of them now, without the cleared ones. */
export interface FeedChange {
  host: string;
  key: string;
  goals: Goal[];
}

export interface TimelineQuery {
  from: number;
  to: number;
  /** at most this many lanes, the most recently active sessions first */
  lanes: number;
  /** only these sessions; every session when null */
  sessions: { host: string; key: string }[] | null;
}

/** unfinished: a turn that never ended, with no sign of life (spoke/goals/sign-of-life.ts) */
export type BarStatus = 'running' | 'ended' | 'interrupted' | 'unfinished';

/** One segment of a turn, from one input to the next: a bar on the timeline. */
export interface TimelineBar {
  /** the turn's anchor (the last part of its id) */
  turnId: string;
  turnIndex: number;
  segmentIndex: number;
  t: number;
  end: number;
  status: BarStatus;
  /** the first line of the prompt that opened the turn */
  trigger: string | null;
  /** the first line of the prompt that opened this segment */
  input: string | null;
}

/** A turn's trigger: a dot on the timeline. */
export interface TimelineDot {
  turnId: string;
  t: number;
  text: string | null;
}

/** One top-level session in a window of time. */
export interface TimelineLane {
  session: SessionSummary;
  bars: TimelineBar[];
  /** where the model had stopped inside a turn (its IDLE atoms) */
  idle: { t: number; end: number }[];
  triggers: TimelineDot[];
  /** spans in PERMISSION or COMPACTING state, from the hooks */
  stripes: LiveSpan[];
}

export interface Source {
  kernel(): KernelInfo;
  hosts(): HostInfo[];
  sessions(filter: SessionFilter, first: number, after: string | null): SessionPage;
  session(host: string, key: string): SessionSummary | null;
  turns(host: string, key: string): Promise<Turn[]>;
  transcript(host: string, key: string, limit: number, beforeSequence: number | null): Promise<TranscriptPage>;
  events(host: string, key: string, filter: EventFilter): Promise<AtomMeta[]>;
  /** a session's API messages, each once; with its subagents' when asked */
  sessionUsage(host: string, key: string, includeSubagents: boolean): UsageTotals;
  /** a session's goals, oldest first, with the live state applied */
  goals(host: string, key: string): Goal[];
  feed(hosts: string[] | null, since: number | null): Feed;
  /**
   * each change of a session's feed goals; with `since`, first the goals of every session changed
   * since then; with `completedSince`, leaving out completed goals last updated before it
   */
  feedChanged(since: number | null, completedSince?: number | null): AsyncIterableIterator<FeedChange>;
  /** takes goals out of the feed; the same idempotency key twice makes one batch */
  clearGoals(goals: { host: string; key: string; anchor: string }[], idempotencyKey: string): Promise<{ batchId: string; cleared: number }>;
  /** puts a cleared batch back; null when there is no such batch */
  undoClear(batchId: string): Promise<{ restored: number } | null>;
  usage(query: UsageQuery): UsageRow[];
  /** one lane per top-level session active in [from, to], most recently active first */
  timeline(query: TimelineQuery): Promise<TimelineLane[]>;
  /** lines of every session that match a search, ranked, each placed in its session and turn */
  search(request: SearchRequest): Promise<SearchResult>;
  /** one atom of a session by its uuid, on the active path or on a rewound branch; null when the session holds none */
  atom(host: string, key: string, uuid: string): Promise<{ atom: AtomMeta; rewound: boolean } | null>;
  /** content for atoms this source returned, in the same order */
  content(host: string, key: string, atoms: AtomMeta[]): Promise<ContentBlock[][]>;
  /** each change of a session; with `since`, first an UPDATED for every session changed since then */
  sessionsChanged(since: number | null): AsyncIterableIterator<SessionChange>;
  /** a number that moves whenever any session appears, changes or goes away: now, then at each move */
  sessionsVersion(): AsyncIterableIterator<number>;
  sessionStream(request: StreamRequest): AsyncIterableIterator<StreamFrame>;
  /** the directories sessions ran in, most recently active first: where a new session may start */
  projectDirectories(first: number): ProjectDirectory[];
}

export interface ProjectDirectory {
  dir: string;
  sessionCount: number;
  lastActiveAt: number;
}

/** A request names something that does not exist. */
export class NotFoundError extends Error {}
/** A request's arguments are wrong in a way the caller can fix. */
export class BadInputError extends Error {}
/** What was asked for exists but cannot be served right now; asking again later may work. */
export class UnavailableError extends Error {}
/** The caller may not do this (a trust tier forbids it). */
export class ForbiddenError extends Error {}

/** The thing was already done, differently: a request answered by someone else first. */
export class ConflictError extends Error {}

/** What `loom link` and the linkHost mutation ask for. */
export interface HostLinkRequest {
  /** what `ssh` would be given: user@host:port or a ~/.ssh/config alias */
  target: string;
  name?: string;
  trust?: TrustTier;
  /** accept a host key seen for the first time */
  acceptNew?: boolean;
  /** start the remote kernel if none runs (never done unasked) */
  startKernel?: boolean;
}

/** The hosts a kernel links over SSH (federation/ implements it; a kernel links none at first). */
export interface HostDirectory {
  list(): HostInfo[];
  link(request: HostLinkRequest): Promise<HostInfo>;
  unlink(name: string): boolean;
  setTrust(name: string, trust: TrustTier): HostInfo;
  /** wakes on any change of any linked host */
  changes(): AsyncIterableIterator<void>;
}
