import type { ResultOf } from '../lib/graphql';
import type { ATOM, SESSION_HEAD, TRANSCRIPT_PAGE, WHOLE_ATOM } from './queries';

// The shapes the chat pane reads from the API, named: each is derived from a document in
// queries.ts (the schema decides the field types), none is written by hand.

export type ChatAtom = ResultOf<typeof ATOM>;
export type Block = ChatAtom['content'][number];
export type ToolUseBlock = Extract<Block, { __typename: 'ToolUseBlock' }>;
export type ToolResultBlock = Extract<Block, { __typename: 'ToolResultBlock' }>;
/** a block read again whole, for "show all" */
export type WholeBlock = NonNullable<ResultOf<typeof WHOLE_ATOM>['atom']>['content'][number];
export type AuthorKind = NonNullable<ChatAtom['author']>['kind'];

export type SessionHead = NonNullable<ResultOf<typeof SESSION_HEAD>['session']>;
export type ChatTurn = SessionHead['turns'][number];
/** What a rewind took off the path: the reader can open it from the turn that replaced it. */
export type RewoundSummary = ChatTurn['rewoundBranches'][number];

export type TranscriptPage = ResultOf<typeof TRANSCRIPT_PAGE>['transcript'];

/** A position on the active path: what a resumed stream or an older page must agree with (page state, not an API shape). */
export interface Fence {
  cursor: number;
  epoch: number;
  generation: number;
}
