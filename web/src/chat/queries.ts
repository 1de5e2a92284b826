import { graphql } from '../lib/graphql';

// The GraphQL documents of the chat pane. Atoms carry their content: the pane renders every
// block, and the stream loads content for each atom it sends anyway.

export const ATOM = graphql(`
  fragment ChatAtom on Atom {
    id sequence type subtype t end model promptLine
    author { kind peer via }
    content {
      __typename
      ... on TextBlock { text }
      ... on ThinkingBlock { thinking }
      ... on ToolUseBlock { toolUseId name input cwd }
      ... on ToolResultBlock { toolUseId toolName isError text images { mediaType data } subagent { id name } }
      ... on ImageBlock { mediaType data }
      ... on OpaqueBlock { blockType }
    }
  }
`);

export const SESSION_HEAD = graphql(`
  query ChatHead($id: ID!) {
    session(id: $id) {
      id name dir
      host { name }
      live { state }
      holder driving
      parent { id name }
      subagents { id name }
      turns { id index t firstSequence trigger { sequence promptLine author { kind } } rewoundBranches { id firstPrompt atomCount t } }
    }
  }
`);

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
