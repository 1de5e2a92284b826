import type { LiveKind } from '../tabs/sessions';

// The shapes the chat pane reads from the API (see queries.ts for the selections).

export type AtomType = 'USER' | 'ASSISTANT' | 'SYSTEM' | 'RESULT' | 'IDLE';
export type AuthorKind = 'HUMAN' | 'SDK' | 'SYSTEM' | 'PEER';

export interface TextBlock {
  __typename: 'TextBlock';
  text: string;
}
export interface ThinkingBlock {
  __typename: 'ThinkingBlock';
  thinking: string;
}
export interface ToolUseBlock {
  __typename: 'ToolUseBlock';
  toolUseId: string;
  name: string;
  input: unknown;
}
export interface ToolResultBlock {
  __typename: 'ToolResultBlock';
  toolUseId: string;
  toolName: string | null;
  isError: boolean;
  text: string;
  /** pictures the tool returned (a screenshot) */
  images: { mediaType: string | null; data: string | null }[];
}
export interface ImageBlock {
  __typename: 'ImageBlock';
  mediaType: string | null;
  data: string | null;
}
export interface OpaqueBlock {
  __typename: 'OpaqueBlock';
  blockType: string;
}

export type Block = TextBlock | ThinkingBlock | ToolUseBlock | ToolResultBlock | ImageBlock | OpaqueBlock;

export interface ChatAtom {
  id: string;
  sequence: number;
  type: AtomType;
  subtype: string | null;
  t: string;
  end: string | null;
  model: string | null;
  /** a prompt's first line as a person recognises it (`/cmd args` for a slash command) */
  promptLine: string | null;
  author: { kind: AuthorKind; peer: string | null } | null;
  content: Block[];
}

/** A position on the active path: what a resumed stream or an older page must agree with. */
export interface Fence {
  cursor: number;
  epoch: number;
  generation: number;
}

export interface TranscriptPage {
  entries: ChatAtom[];
  epoch: number;
  generation: number;
  maxSequence: number;
  hasOlder: boolean;
}

export interface StreamFrame {
  kind: 'SNAPSHOT' | 'DELTA' | 'STOPPED';
  reset: boolean;
  reason: string | null;
  cursor: number;
  epoch: number;
  generation: number;
  atoms: ChatAtom[];
}

/** What a rewind took off the path: the reader can open it from the turn that replaced it. */
export interface RewoundSummary {
  id: string;
  firstPrompt: string | null;
  atomCount: number;
  t: string;
}

export interface ChatTurn {
  id: string;
  index: number;
  t: string;
  firstSequence: number;
  trigger: { sequence: number; promptLine: string | null; author: { kind: AuthorKind } | null } | null;
  rewoundBranches: RewoundSummary[];
}

export interface SessionHead {
  id: string;
  name: string;
  dir: string;
  host: { name: string };
  live: { state: LiveKind };
  parent: { id: string; name: string } | null;
  subagents: { id: string; name: string }[];
  turns: ChatTurn[];
}
