import { graphql } from '../lib/graphql';

// The GraphQL documents of usage and cost: the usage view's groups, and the figures the chat
// header shows for one session.

/** One session's tokens by kind and what they cost. */
export const USAGE_FIGURES = graphql(`
  fragment UsageFigures on Usage {
    inputTokens outputTokens cacheCreationTokens cacheReadTokens totalTokens cost costStatus
  }
`);

/** One group of usage(): a day, a model, a host or a session, and its figures. */
export const USAGE_ROW = graphql(`
  fragment UsageRowFigures on UsageRow {
    key inputTokens outputTokens cacheCreationTokens cacheReadTokens totalTokens cost costStatus
  }
`);

/** Every group the view shows, over one range, in one request (days in the reader's time zone). */
export const USAGE = graphql(
  `
  query UsageView($since: String, $timeZone: String) {
    days: usage(groupBy: DAY, since: $since, timeZone: $timeZone) { ...UsageRowFigures }
    models: usage(groupBy: MODEL, since: $since, timeZone: $timeZone) { ...UsageRowFigures }
    hosts: usage(groupBy: HOST, since: $since, timeZone: $timeZone) { ...UsageRowFigures }
    sessions: usage(groupBy: SESSION, since: $since, timeZone: $timeZone) { ...UsageRowFigures }
  }
`,
  [USAGE_ROW],
);
