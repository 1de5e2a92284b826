import { graphql } from '../lib/graphql';

// The top bar's search: a page of hits for the words typed, and the next page on request.

export const SEARCH = graphql(`
  query Search($query: String!, $first: Int, $after: String) {
    search(query: $query, first: $first, after: $after) {
      complete
      unreachableHosts
      hasNextPage
      endCursor
      hits {
        id
        type
        field
        at
        snippet { text hit }
        session { id name loomName host { name } }
      }
    }
  }
`);

/** Where an opened hit's line is now: asked only then, since it reads a sleeping session again. */
export const HIT_PLACE = graphql(`
  query HitPlace($id: ID!) {
    atom(id: $id) { sequence rewound }
  }
`);
