import { graphql } from '../lib/graphql';

// The GraphQL documents of the session list (tabs, timeline lanes, feed labels). The fields are
// written out in each rather than shared as a fragment: the kernel's cost and depth limits count
// a fragment spread as a level, which puts 500 sessions over the cost limit. sessions.ts types a
// tab from SESSION_TABS and stores the change's session as one, so the two cannot drift apart.

/**
 * A tab: host status is null for this machine; a DOWN host's sessions are what it said last
 * (stale); a subagent's session (parent set) is no tab, though sessionsChanged reports it too.
 */
export const SESSION_TABS = graphql(`
  query SessionTabs($after: String) {
    sessions(first: 500, after: $after) {
      nodes {
        id name dir updatedAt startedAt turnCount
        host { name local status { state since } }
        live { state since detail }
        parent { id }
      }
      pageInfo { hasNextPage endCursor }
    }
  }
`);

export const SESSION_TAB_CHANGES = graphql(`
  subscription SessionTabChanges {
    sessionsChanged {
      kind sessionId
      session {
        id name dir updatedAt startedAt turnCount
        host { name local status { state since } }
        live { state since detail }
        parent { id }
      }
    }
  }
`);
