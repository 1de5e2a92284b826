import { graphql } from '../lib/graphql';

// The GraphQL documents of tags, saved views and Loom names: each host keeps its own (ids
// `host:id`), and an edit goes to the host the tag, view or session is on. Every write answers
// with the host's tags and views as it left them (HostViews).

export const HOST_VIEWS = graphql(`
  fragment HostViews on Views {
    seq
    tags { id name color memberIds }
    views { id name filter tagIds untagged order }
  }
`);

/** A host's tags and views now, then after each write to them. */
export const VIEWS_CHANGED = graphql(
  `
  subscription ViewsChanged($host: String) {
    viewsChanged(host: $host) { ...HostViews }
  }
`,
  [HOST_VIEWS],
);

/** A host's tags and views, read again (after a whole write was refused as stale). */
export const HOST_VIEWS_NOW = graphql(
  `
  query HostViewsNow($host: String) {
    views(host: $host) { ...HostViews }
  }
`,
  [HOST_VIEWS],
);

export const CREATE_TAG = graphql(
  `
  mutation CreateTag($host: String, $name: String!, $color: String!) {
    createTag(host: $host, name: $name, color: $color) { tag { id } views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

export const RENAME_TAG = graphql(
  `
  mutation RenameTag($id: ID!, $name: String!) {
    renameTag(id: $id, name: $name) { views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

export const RECOLOR_TAG = graphql(
  `
  mutation RecolorTag($id: ID!, $color: String!) {
    recolorTag(id: $id, color: $color) { views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

export const DELETE_TAG = graphql(
  `
  mutation DeleteTag($id: ID!) {
    deleteTag(id: $id) { views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

/** The host's tags in a new order, written whole: CONFLICT when the store moved past `expectedSeq`. */
export const SET_TAG_ORDER = graphql(
  `
  mutation SetTagOrder($host: String, $tagIds: [ID!]!, $expectedSeq: Int!) {
    setTagOrder(host: $host, tagIds: $tagIds, expectedSeq: $expectedSeq) { views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

export const TAG_SESSION = graphql(
  `
  mutation TagSession($tagId: ID!, $sessionId: ID!) {
    tagSession(tagId: $tagId, sessionId: $sessionId) { views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

export const UNTAG_SESSION = graphql(
  `
  mutation UntagSession($tagId: ID!, $sessionId: ID!) {
    untagSession(tagId: $tagId, sessionId: $sessionId) { views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

export const RENAME_SESSION = graphql(`
  mutation RenameSession($sessionId: ID!, $name: String!) {
    renameSession(sessionId: $sessionId, name: $name) { seq }
  }
`);
