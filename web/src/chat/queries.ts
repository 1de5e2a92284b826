import { graphql } from '../lib/graphql';
import { USAGE_FIGURES } from '../usage/queries';

// The GraphQL documents of the chat pane. Atoms carry their content: the pane renders every
// block, and the stream loads content for each atom it sends anyway.

// Every text comes as its first 4,000 characters (strings of a tool's input each likewise), with
// its length: about a screen of prose, so most messages arrive whole and show as written, and a
// prefix parses as Markdown in a millisecond or two, while no block (a 10 MB pasted log, a file a
// tool read) can make a page of 200 atoms more than a few megabytes or stall the tab drawing it.
// The rest is read on "show all" (WHOLE_ATOM). Images come as their size only: a row reads its
// image's bytes when it is drawn (IMAGE).
export const ATOM = graphql(`
  fragment ChatAtom on Atom {
    id sequence type subtype t end model promptLine
    author { kind peer via }
    content {
      __typename
      ... on TextBlock { text(maxChars: 4000) length }
      ... on ThinkingBlock { thinking(maxChars: 4000) length }
      ... on ToolUseBlock { toolUseId name input(maxChars: 4000) longestString cwd }
      ... on ToolResultBlock { toolUseId toolName isError text(maxChars: 4000) length images { mediaType bytes } subagent { id name } }
      ... on ImageBlock { mediaType bytes }
      ... on OpaqueBlock { blockType }
    }
  }
`);

/** One atom's texts, whole: what "show all" shows of a block the pane holds the first characters of. */
export const WHOLE_ATOM = graphql(`
  query ChatWholeAtom($id: ID!) {
    atom(id: $id) {
      id
      content {
        __typename
        ... on TextBlock { text }
        ... on ThinkingBlock { thinking }
        ... on ToolUseBlock { input }
        ... on ToolResultBlock { text }
      }
    }
  }
`);

/** The header's usage counts the subagents the session launched (their work was its asks), and its own apart. */
export const SESSION_HEAD = graphql(
  `
  query ChatHead($id: ID!) {
    session(id: $id) {
      id name loomName dir archived
      host { name }
      live { state }
      holder driving
      parent { id name }
      subagents { id name }
      turns { id index t firstSequence trigger { sequence promptLine author { kind } } rewoundBranches { id firstPrompt atomCount t } }
      usage(includeSubagents: true) { ...UsageFigures }
      ownUsage: usage { totalTokens cost costStatus }
    }
  }
`,
  [USAGE_FIGURES],
);

/** The atoms of what rewinds took off a session's path, read when the reader opens one. */
export const REWOUND_BRANCHES = graphql(
  `
  query ChatRewound($id: ID!) {
    session(id: $id) {
      turns { rewoundBranches { id atoms { ...ChatAtom } } }
    }
  }
`,
  [ATOM],
);

export const TRANSCRIPT_PAGE = graphql(
  `
  query ChatPage($id: ID!, $limit: Int, $before: Int) {
    transcript(sessionId: $id, limit: $limit, beforeSequence: $before) {
      epoch generation maxSequence hasOlder
      entries { ...ChatAtom }
    }
  }
`,
  [ATOM],
);

/** The bytes of one atom's images: what a picture reads when its row is drawn. */
export const IMAGE = graphql(`
  query ChatImage($id: ID!) {
    atom(id: $id) {
      id
      content {
        __typename
        ... on ImageBlock { data }
        ... on ToolResultBlock { images { data } }
      }
    }
  }
`);

export const SESSION_STREAM = graphql(
  `
  subscription ChatStream($id: ID!, $cursor: Int, $epoch: Int, $generation: Int) {
    sessionStream(sessionId: $id, cursor: $cursor, epoch: $epoch, generation: $generation) {
      kind reset reason cursor epoch generation
      atoms { ...ChatAtom }
    }
  }
`,
  [ATOM],
);
