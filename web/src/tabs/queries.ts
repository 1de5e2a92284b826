import { graphql } from '../lib/graphql';

// The GraphQL documents of the session list (tabs, timeline lanes, feed labels).

/**
 * A tab: host status is null for this machine; a DOWN host's sessions are what it said last
 * (stale); a subagent's session (parent set) is no tab, though sessionsChanged reports it too.
 * Who holds the session and whether a driven one works change outside its transcript; kept here,
 * sessionsChanged keeps them current for the chat's composer. `loomName` is the name given in Loom
 * (renameSession), shown instead of `name`.
 */
export const SESSION_TAB = graphql(`
  fragment SessionTab on Session {
    id name loomName dir updatedAt startedAt turnCount archived
    host { name local status { state since } }
    live { state since detail }
    holder driving
    parent { id }
  }
`);

export const SESSION_TABS = graphql(
  `
  query SessionTabs($after: String) {
    sessions(first: 500, after: $after) {
      nodes { ...SessionTab }
      pageInfo { hasNextPage endCursor }
    }
  }
`,
  [SESSION_TAB],
);

export const SESSION_TAB_CHANGES = graphql(
  `
  subscription SessionTabChanges {
    sessionsChanged {
      kind sessionId
      session { ...SessionTab }
    }
  }
`,
  [SESSION_TAB],
);
