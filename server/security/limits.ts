import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import * as z from 'zod';

// Limits on what one GraphQL operation may ask, enforced while parsing and validating (before
// any resolver runs), on HTTP and WebSocket alike since both go through yoga's envelop; and on
// what operations may do once they run (operation-bounds.ts). One type, its defaults beside each
// field; `loom up --limit name=value` changes any of them.

export const QueryLimits = z.object({
  depth: z.number().int().positive().default(8),
  aliases: z.number().int().nonnegative().default(15),
  tokens: z.number().int().positive().default(2000),
  directives: z.number().int().nonnegative().default(10),
  cost: z.number().int().positive().default(50_000),
  /** queries and mutations running at once in the kernel, every caller together */
  operations: z.number().int().positive().default(32),
  /** queries and mutations running at once on one WebSocket (a hub's socket: `hubSocketOperations`) */
  socketOperations: z.number().int().positive().default(4),
  /** the same on a linked hub's socket, which carries all of that hub's callers (the hub sends 8 at most) */
  hubSocketOperations: z.number().int().positive().default(16),
  /** values one answer may hold, counted as it is built: every field, every list item */
  values: z.number().int().positive().default(100_000),
  /** transcript bytes one answer may read (atoms' content) */
  bytes: z
    .number()
    .int()
    .positive()
    .default(64 * 2 ** 20),
});
export type QueryLimits = z.infer<typeof QueryLimits>;

export const DEFAULT_LIMITS: QueryLimits = QueryLimits.parse({});

/** Parses `--limit name=value` flags; an unknown name or a bad number is refused with the reason. */
export function parseLimitFlags(flags: string[]): QueryLimits {
  const raw: Record<string, number> = {};
  for (const flag of flags) {
    const [name, value] = flag.split('=');
    if (!(name in DEFAULT_LIMITS)) throw new Error(`--limit ${flag}: unknown limit "${name}"; known: ${Object.keys(DEFAULT_LIMITS).join(', ')}`);
    raw[name] = Number(value);
  }
  const parsed = QueryLimits.safeParse(raw);
  if (!parsed.success) throw new Error(`--limit: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return parsed.data;
}

export function limitsPlugin(limits: QueryLimits) {
  return EnvelopArmorPlugin({
    // a fragment spread is where fields are written, not a level of the answer: it costs nothing itself
    maxDepth: { n: limits.depth, ignoreIntrospection: true, flattenFragments: true },
    maxAliases: { n: limits.aliases },
    maxTokens: { n: limits.tokens },
    maxDirectives: { n: limits.directives },
    costLimit: { maxCost: limits.cost, ignoreIntrospection: true, flattenFragments: true },
    // no-suggestions.ts strips every "Did you mean …" (armor's own blocker misses enum values)
    blockFieldSuggestion: { enabled: false },
  });
}
