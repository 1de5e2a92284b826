import { graphql } from '../lib/graphql';
import { HOST_VIEWS } from '../tags/queries';

// The GraphQL documents of saved views: a view is kept by one host, with that host's tags.

/** A view saved whole, new or replacing one (`view.id`): CONFLICT when the store moved past `expectedSeq`. */
export const SAVE_VIEW = graphql(
  `
  mutation SaveView($host: String, $view: ViewInput!, $expectedSeq: Int!) {
    saveView(host: $host, view: $view, expectedSeq: $expectedSeq) { view { id } views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);

export const DELETE_VIEW = graphql(
  `
  mutation DeleteView($id: ID!) {
    deleteView(id: $id) { views { ...HostViews } }
  }
`,
  [HOST_VIEWS],
);
