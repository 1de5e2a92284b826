import { REQUEST } from '../answer/queries';
import { graphql } from '../lib/graphql';

// The GraphQL documents of the feed: the goal fields a card shows, as `feed` and `feedChanged`
// send them, and a goal in full for the modal.

export const GOAL_CARD = graphql(
  `
  fragment GoalCard on Goal {
    id title status rolledUpStatus outcome openedAt updatedAt
    block { kind text request { ...Request } }
    answeredRequest { state answeredBy answer closedAt }
    children { status }
    session { id name loomName host { name } }
  }
`,
  [REQUEST],
);

export const FEED = graphql(
  `
  query Feed($completedFirst: Int) { feed(completedFirst: $completedFirst) { working { ...GoalCard } blocked { ...GoalCard } completed { ...GoalCard } } }
`,
  [GOAL_CARD],
);

export const FEED_CHANGES = graphql(
  `
  subscription FeedChanges($completedSince: DateTime) { feedChanged(completedSince: $completedSince) { sessionId goals { ...GoalCard } } }
`,
  [GOAL_CARD],
);

export const CLEAR_GOALS = graphql(`
  mutation ClearGoals($ids: [ID!]!, $key: String!) { clearGoals(ids: $ids, idempotencyKey: $key) { batchId } }
`);

export const UNDO_CLEAR = graphql(`
  mutation UndoClear($batchId: ID!) { undoClear(batchId: $batchId) { restored } }
`);

export const GOAL_DETAIL = graphql(`
  query GoalDetail($id: ID!) {
    goal(id: $id) {
      id title rolledUpStatus outcome
      block { kind text }
      anchor { id }
      session { id name loomName host { name } }
      trail { index input { promptLine } t end atomCount }
      children { id kind title status }
    }
  }
`);
