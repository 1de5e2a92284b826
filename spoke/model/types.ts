import type { ArchiveStatus } from './archive';
import type { LiveState } from './live';
import type { SearchProgress } from './search';
import type { MessageUsage } from './usage';

// The substrate-neutral model: what a session is, whatever file format it was rebuilt from.
// Times are epoch milliseconds; the API layer turns them into DateTime values.

export type AtomType = 'user' | 'assistant' | 'system' | 'result' | 'idle';

/** Who wrote a user atom. Absent on tool_result-only atoms (harness output). */
/**
 * `via: 'loom'`: a person's prompt that reached a terminal session through Loom (a Stop hook
 * delivery), with the id of the message Loom sent
 */
export type Author = { kind: 'human'; via?: 'loom'; messageId?: string } | { kind: 'sdk' } | { kind: 'system' } | { kind: 'peer'; peer: string | null };

export type ContentBlock =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string }
  /** `cwd`: the session's working directory when the call was made, as its line records it */
  | { type: 'tool_use'; id: string; name: string; input: unknown; cwd: string | null }
  | {
      type: 'tool_result';
      toolUseId: string;
      toolName: string | null;
      content: unknown;
      isError: boolean;
      images: ImageBlock[];
      /** a Task (Agent) call's: Claude Code's id for the subagent it ran, as the result's line names it */
      agentId: string | null;
      /** that subagent's session, when this kernel holds its transcript */
      subagent: { host: string; key: string } | null;
    }
  | ImageBlock
  | { type: 'opaque'; blockType: string; raw: unknown };

/** A picture: in a prompt, or in a tool's result (a screenshot). */
export interface ImageBlock {
  type: 'image';
  mediaType: string | null;
  data: string | null;
}

/** An atom as the index keeps it: no content, only what turns, names and pages need. */
export interface AtomMeta {
  uuid: string;
  /** position on the session's active path, 1…N (0 while off the path) */
  sequence: number;
  type: AtomType;
  subtype: string | null;
  t: number;
  author: Author | null;
  model: string | null;
  stopReason: string | null;
  /** tool_use ids this atom opened (assistant) */
  toolUses: string[] | null;
  /** tool_use ids this atom answered (user) */
  toolResults: string[] | null;
  /** each of `toolUses`' tool names, in the same order, so results can name their call without loading it */
  toolNames: string[] | null;
  /** first line of a prompt, for triggers and session names */
  promptLine: string | null;
  /** true for the harness's own "[Request interrupted by user…]" line */
  interrupt: boolean;
  /**
   * a note of the terminal rather than a message to the model: a `!` command or its output, a
   * `#` memory, a local slash command or its output (never a session's name; never a rewind)
   */
  terminalNote: boolean;
  /** assistant lines: the tokens of the API message this line belongs to, as this line reports them */
  usage: MessageUsage | null;
  /** assistant lines: the tool calls goals are made of (questions, plans, todo lists, subagents) */
  goalTools: GoalTool[] | null;
  /** idle atoms only: when the idle span ended */
  idleUntil?: number;
  /** which file holds the line, and where */
  fsid: string;
  file: string;
  offset: number;
  length: number;
}

/** An atom with its content, loaded from the transcript on demand. */
export interface Atom extends AtomMeta {
  content: ContentBlock[];
}

export type GoalTool =
  | { id: string; kind: 'QUESTION' | 'PLAN_APPROVAL' | 'SUBAGENT'; text: string }
  | { id: string; kind: 'TODOS'; text: string; todos: { content: string; status: string }[] }
  /** the newer task tools: TaskCreate (text: the subject), its result naming the task's number, TaskUpdate */
  | { id: string; kind: 'TASK_CREATE'; text: string }
  | { id: string; kind: 'TASK_NUMBER'; text: string }
  | { id: string; kind: 'TASK_UPDATE'; text: string; taskId: string; status: string | null };

export interface Segment {
  index: number;
  /** the input atom that opened the segment (a prompt or a trigger), if any */
  input: AtomMeta | null;
  t: number;
  end: number;
  atomCount: number;
}

/** Atoms a rewind took off the path: kept, reachable, never numbered. */
export interface RewoundBranch {
  /** uuid of the atom the branch grew from (null: from the start) */
  forkedFrom: string | null;
  /** uuid of the prompt that took its place */
  replacedBy: string;
  atoms: AtomMeta[];
}

export interface Turn {
  id: string;
  index: number;
  trigger: AtomMeta | null;
  t: number;
  end: number;
  ended: boolean;
  interrupted: boolean;
  atoms: AtomMeta[];
  segments: Segment[];
  /** what rewinds inside this turn took off the path, oldest first */
  rewoundBranches: RewoundBranch[];
}

export interface ParseError {
  file: string;
  line: number;
  offset: number;
  reason: string;
}

export type FileRole = 'main' | 'subagent';

export interface TranscriptFile {
  path: string;
  fsid: string;
  role: FileRole;
  bytes: number;
  lines: number;
  /** how many times the file was read again from the start (truncated or replaced) */
  rereads: number;
  /** Claude Code deleted the file: it is read from Loom's copy (spoke/archive/) */
  archived: boolean;
}

/** A session as lists and headers see it. */
export interface SessionSummary {
  host: string;
  key: string;
  name: string;
  dir: string;
  project: string;
  gitBranch: string | null;
  models: string[];
  startedAt: number;
  updatedAt: number;
  files: TranscriptFile[];
  /** every file of the session is gone from disk: it is served from Loom's copy */
  archived: boolean;
  turnCount: number;
  atomCount: number;
  parentKey: string | null;
  subagentKeys: string[];
  parseErrors: ParseError[];
  generation: number;
  epoch: number;
  /** from Claude Code's hooks: UNKNOWN when none were seen */
  live: LiveState;
}

export interface HostInfo {
  name: string;
  local: boolean;
  /** for a host a hub links over SSH: how, and how it is now */
  link?: HostLink;
}

export type HostState = 'UP' | 'CONNECTING' | 'DOWN';
export type HostDownReason =
  | 'UNREACHABLE'
  | 'AUTH_FAILED'
  | 'HOST_KEY_UNKNOWN'
  | 'HOST_KEY_CHANGED'
  | 'HOST_KEY_REVOKED'
  | 'KERNEL_NOT_RUNNING'
  | 'VERSION_MISMATCH';

/** What a linked host may receive from this hub: see docs/federation.md. */
export type TrustTier = 'trusted' | 'directed' | 'isolated';

export interface HostLink {
  target: string;
  trust: TrustTier;
  state: HostState;
  /** DOWN only: why, and what to do about it */
  reason: HostDownReason | null;
  message: string | null;
  /** when the state last changed */
  since: number;
  /** when the host last answered */
  lastSeen: number | null;
  /** the last round trip to the remote kernel, through the tunnel */
  rttMs: number | null;
}

export interface IndexingProgress {
  filesDone: number;
  /** files the index cache vouched for, unchanged since the last run: not read at all */
  filesFromCache: number;
  filesTotal: number;
  bytesDone: number;
  bytesTotal: number;
  done: boolean;
  /** worker threads that index whole projects of the first read besides the kernel's own (0: the kernel's thread alone) */
  workers: number;
  /** of the files read, those a worker parsed (the rest the kernel's thread did: while the workers started, or when it was first to a file) */
  filesByWorkers: number;
}

export interface KernelInfo {
  version: string;
  host: HostInfo;
  startedAt: number;
  projectsRoot: string;
  indexing: IndexingProgress;
  /** the search index's background pass; null when search is off */
  searchIndexing: SearchProgress | null;
  /** Loom's copy of the transcripts; null when it is off */
  archive: ArchiveStatus | null;
  sessionCount: number;
}
