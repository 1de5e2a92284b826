// Queries over each of graphql-armor's limits, with what the refusal's message names: 20 deep,
// 100 aliases, 10,000 tokens. Each must be refused before anything runs.

const deep = `{ session(id: "test:s1") { ${'subagents { '.repeat(19)}id${' }'.repeat(19)} } }`;
const aliases = `{ ${Array.from({ length: 100 }, (_, i) => `a${i}: hosts { id }`).join(' ')} }`;
const tokens = `{ hosts { ${'id '.repeat(5000)}} }`;

export const OVER_LIMIT_QUERIES: readonly (readonly [query: string, refusal: RegExp])[] = [
  [deep, /depth|cost/i],
  [aliases, /aliases/i],
  [tokens, /token/i],
];
