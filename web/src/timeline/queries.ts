import { graphql } from '../lib/graphql';

// The timeline's document: the lanes of a window, one per session asked for.

export const TIMELINE = graphql(`
  query Timeline($from: String!, $to: String!, $lanes: Int, $sessions: [ID!]) {
    timeline(from: $from, to: $to, lanes: $lanes, sessions: $sessions) {
      session { id name host { name } }
      bars { turnId turnIndex segmentIndex t end status triggerText inputText }
      idle { t end }
      triggers { turnId t text }
      stripes { kind t end }
    }
  }
`);
