import { graphql } from '../lib/graphql';

// The GraphQL documents of tags and Loom names: each host keeps its own tags (ids `host:id`), and
// an edit goes to the host the tag or session is on.

export const HOST_TAGS = graphql(`
  fragment HostTags on Views {
    seq
    tags { id name color memberIds }
  }
`);

/** A host's tags now, then after each write to them. */
export const TAGS_CHANGED = graphql(
  `
  subscription TagsChanged($host: String) {
    viewsChanged(host: $host) { ...HostTags }
  }
`,
  [HOST_TAGS],
);

export const CREATE_TAG = graphql(
  `
  mutation CreateTag($host: String, $name: String!, $color: String!) {
    createTag(host: $host, name: $name, color: $color) { tag { id } views { ...HostTags } }
  }
`,
  [HOST_TAGS],
);

export const TAG_SESSION = graphql(
  `
  mutation TagSession($tagId: ID!, $sessionId: ID!) {
    tagSession(tagId: $tagId, sessionId: $sessionId) { views { ...HostTags } }
  }
`,
  [HOST_TAGS],
);

export const UNTAG_SESSION = graphql(
  `
  mutation UntagSession($tagId: ID!, $sessionId: ID!) {
    untagSession(tagId: $tagId, sessionId: $sessionId) { views { ...HostTags } }
  }
`,
  [HOST_TAGS],
);

export const RENAME_SESSION = graphql(`
  mutation RenameSession($sessionId: ID!, $name: String!) {
    renameSession(sessionId: $sessionId, name: $name) { seq }
  }
`);
