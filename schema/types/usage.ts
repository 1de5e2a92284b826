import type { UsageRow, UsageTotals } from '../../spoke/model/usage';
import { tokenTotal, totals, usageOfAtoms } from '../../spoke/usage/usage';
import { builder } from '../builder';
import { hubRoute } from '../remote/hub-route';
import { parseTime } from '../time';
import { AtomRef } from './atom';
import { SessionRef } from './session';
import { TurnRef } from './turn';

// Tokens and cost: per atom (its API message), per turn, per session, and across sessions.

const CostStatusEnum = builder.enumType('CostStatus', {
  description: 'ESTIMATED: from the price table; UNKNOWN: some model in it has no price, so no cost is given.',
  values: ['ESTIMATED', 'UNKNOWN'] as const,
});
const CostSourceEnum = builder.enumType('CostSource', { values: ['CATALOG', 'NONE'] as const });
const UsageGroupEnum = builder.enumType('UsageGroup', { values: ['DAY', 'SESSION', 'MODEL', 'HOST'] as const });

const UsageRef = builder.objectRef<UsageTotals>('Usage');
const UsageRowRef = builder.objectRef<UsageRow>('UsageRow');

for (const [ref, description] of [
  [UsageRef, 'Tokens of API messages, each message counted once, and what they cost.'],
  [UsageRowRef, 'One group of usage(): a day, a session, a model or a host.'],
] as const) {
  (ref as typeof UsageRef).implement({
    description,
    fields: (t) => ({
      inputTokens: t.float({ resolve: (u) => u.input }),
      outputTokens: t.float({ resolve: (u) => u.output }),
      cacheCreationTokens: t.float({ resolve: (u) => u.cacheWrite }),
      cacheCreation5mTokens: t.float({ description: 'cache writes with the 5-minute lifetime, when the transcript says', resolve: (u) => u.cacheWrite5m }),
      cacheCreation1hTokens: t.float({ description: 'cache writes with the 1-hour lifetime, when the transcript says', resolve: (u) => u.cacheWrite1h }),
      cacheReadTokens: t.float({ resolve: (u) => u.cacheRead }),
      totalTokens: t.float({ resolve: (u) => tokenTotal(u) }),
      cost: t.float({ nullable: true, description: 'USD; null when costStatus is UNKNOWN', resolve: (u) => u.cost }),
      costStatus: t.field({ type: CostStatusEnum, resolve: (u) => u.costStatus }),
      costSource: t.field({ type: CostSourceEnum, resolve: (u) => u.costSource }),
    }),
  });
}
builder.objectField(UsageRowRef, 'key', (t) => t.exposeString('key', { description: 'YYYY-MM-DD, a session id, a model or a host' }));

builder.objectField(AtomRef, 'usage', (t) =>
  t.field({
    type: UsageRef,
    nullable: true,
    description: 'assistant atoms: the usage of the API message this line belongs to (lines of one message report the same message; sums count it once)',
    resolve: (n) => (n.atom.usage ? totals([n.atom.usage]) : null),
  }),
);

builder.objectField(TurnRef, 'usage', (t) => t.field({ type: UsageRef, resolve: (n) => usageOfAtoms(n.turn.atoms) }));

builder.objectField(SessionRef, 'usage', (t) =>
  t.field({
    type: UsageRef,
    description: "every API message in the session's files, rewound branches included (they were billed)",
    args: { includeSubagents: t.arg.boolean({ defaultValue: false }) },
    resolve: (s, { includeSubagents }, { source }) => source.sessionUsage(s.host, s.key, includeSubagents ?? false),
  }),
);

builder.queryField('usage', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'merged', rule: 'usage' }),
    type: [UsageRowRef],
    description: 'Usage across every session (subagents included), grouped; each API message counted once.',
    args: {
      since: t.arg.string({ description: 'RFC 3339; messages at or after it' }),
      until: t.arg.string({ description: 'RFC 3339; messages before it' }),
      groupBy: t.arg({ type: UsageGroupEnum, defaultValue: 'DAY' }),
      timeZone: t.arg.string({ defaultValue: 'UTC', description: 'IANA zone days are counted in' }),
    },
    resolve: (_, args, { source }) =>
      source.usage({
        since: parseTime('since', args.since),
        until: parseTime('until', args.until),
        groupBy: args.groupBy ?? 'DAY',
        timeZone: args.timeZone ?? 'UTC',
      }),
  }),
);
