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
        sequence
        rewound
        field
        at
        snippet { text hit }
        session { id name loomName host { name } }
        turn { id }
        atom { type }
      }
    }
  }
`);
