import { GraphQLError } from 'graphql';
import type { Goal } from '../../spoke/model/goal';
import type { Feed, FeedChange, GoalRef } from '../../spoke/model/source';
import { builder } from '../builder';
import { completedLimit, keepFirst } from '../feed-limit';
import { sessionId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { batchParts, clearAcrossHosts, undoAcrossHosts } from '../remote/remote-mutations';
import { parseTime } from '../time';
import { AtomRef, atomNode } from './atom';
import { assertWritable } from './host';
import { PermissionRequestRef } from './permission-request';
import { SessionRef } from './session';

// Goals: every ask (a turn a human, an SDK caller or a peer opened), whether it needs its person,
// and the feed that puts them in three columns.

const GoalStatusEnum = builder.enumType('GoalStatus', { values: ['WORKING', 'BLOCKED', 'COMPLETED'] as const });
const BlockKindEnum = builder.enumType('BlockKind', { values: ['PERMISSION', 'QUESTION', 'PLAN_APPROVAL', 'ERROR'] as const });
const OutcomeEnum = builder.enumType('GoalOutcome', {
  values: {
    COMPLETED: { description: 'the turn ended' },
    INTERRUPTED: { description: 'the user stopped the turn' },
    UNFINISHED: {
      description:
        "left open with nobody at work on it: no sign of life (a live hook state, or a record within 10 minutes of the kernel's clock), or the session went on to a newer ask; updatedAt is its last activity",
    },
  } as const,
});
const OriginEnum = builder.enumType('GoalOrigin', {
  values: { HUMAN: { value: 'human' }, SDK: { value: 'sdk' }, PEER: { value: 'peer' }, SYSTEM: { value: 'system' } } as const,
});
const ChildKindEnum = builder.enumType('ChildGoalKind', {
  values: {
    TODO: { description: 'an item of the latest todo list (TodoWrite)' },
    TASK: { description: 'a task it created (TaskCreate)' },
    SUBAGENT: { description: 'a subagent it launched' },
    ASK: {
      description: 'an older ask of the same session still open with a sign of life: a session works on one ask at a time, so it rolls up under the newest',
    },
  } as const,
});

/** `host:sessionKey/anchor`: a goal's key is its session's key and the uuid of the prompt that opened it. */
const goalId = (ref: GoalRef) => `${ref.host}:${ref.key}/${ref.goal.anchor}`;

function parseGoalId(id: string): { host: string; key: string; anchor: string } {
  const match = /^([^:]+):([^:/]+)\/([^:/]+)$/.exec(id);
  if (!match) throw new GraphQLError(`"${id}" is not a goal id; goal ids look like "host:sessionKey/promptUuid"`, { extensions: { code: 'BAD_USER_INPUT' } });
  return { host: match[1], key: match[2], anchor: match[3] };
}

const BlockRef = builder.objectRef<NonNullable<Goal['block']>>('GoalBlock').implement({
  fields: (t) => ({
    kind: t.field({ type: BlockKindEnum, resolve: (b) => b.kind }),
    text: t.exposeString('text', { description: 'the question, the plan, the tool awaiting permission' }),
    request: t.field({
      type: PermissionRequestRef,
      nullable: true,
      description: "the request Claude Code holds open through Loom's hook: answer it with allowTool, denyTool, answerQuestion, approvePlan or rejectPlan",
      resolve: (b, _, ctx) => (b.request ? { host: ctx.source.kernel().host.name, request: b.request } : null),
    }),
  }),
});

interface ChildNode {
  ref: GoalRef;
  child: Goal['children'][number];
}

const ChildGoalRef = builder.objectRef<ChildNode>('ChildGoal').implement({
  description:
    'A part of a goal: an item of its latest todo list, a task it created (TaskCreate), a subagent it launched, or an older open ask of the same session rolled up under it.',
  fields: (t) => ({
    id: t.id({ resolve: (c) => `${goalId(c.ref)}/${c.child.key}` }),
    kind: t.field({ type: ChildKindEnum, resolve: (c) => c.child.kind }),
    title: t.string({ resolve: (c) => c.child.title }),
    status: t.field({ type: GoalStatusEnum, resolve: (c) => c.child.status }),
  }),
});

const GoalRefType = builder.objectRef<GoalRef>('Goal');

/** The turn a goal is, read from its session (waking it when asleep). */
async function turnOf(ref: GoalRef, source: import('../../spoke/model/source').Source) {
  return (await source.turns(ref.host, ref.key)).find((t) => t.trigger?.uuid === ref.goal.anchor) ?? null;
}

GoalRefType.implement({
  description: 'An ask: a turn opened by a person, an SDK caller or a peer, and whether it needs its person.',
  fields: (t) => ({
    id: t.id({ resolve: goalId }),
    title: t.string({ resolve: (r) => r.goal.title }),
    status: t.field({ type: GoalStatusEnum, resolve: (r) => r.goal.status }),
    rolledUpStatus: t.field({
      type: GoalStatusEnum,
      description: 'BLOCKED if any part is; COMPLETED when it and every part are, or when it was left open (outcome UNFINISHED)',
      resolve: (r) => r.goal.rolledUpStatus,
    }),
    block: t.field({ type: BlockRef, nullable: true, resolve: (r) => r.goal.block }),
    answeredRequest: t.field({
      type: PermissionRequestRef,
      nullable: true,
      description: "the last request asked through Loom's hook during this goal, once closed: who answered it (answeredBy), or why it closed (state)",
      resolve: (r, _, ctx) => (r.goal.answeredRequest ? { host: ctx.source.kernel().host.name, request: r.goal.answeredRequest } : null),
    }),
    outcome: t.field({ type: OutcomeEnum, nullable: true, description: 'how a COMPLETED goal ended; null while it is not', resolve: (r) => r.goal.outcome }),
    origin: t.field({ type: OriginEnum, resolve: (r) => r.goal.origin }),
    openedAt: t.field({ type: 'DateTime', resolve: (r) => r.goal.openedAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (r) => r.goal.updatedAt }),
    children: t.field({ type: [ChildGoalRef], resolve: (r) => r.goal.children.map((child) => ({ ref: r, child })) }),
    rolledUpInto: t.field({
      type: GoalRefType,
      nullable: true,
      description: 'the newer ask of the same session this open ask rolled up under (it is a part of kind ASK there, and no card of its own in the feed)',
      resolve: (r, _, { source }) => {
        const into = r.goal.rolledUpInto;
        const goal = into ? source.goals(r.host, r.key).find((g) => g.anchor === into) : undefined;
        return goal ? { host: r.host, key: r.key, goal } : null;
      },
    }),
    session: t.field({ type: SessionRef, nullable: true, resolve: (r, _, { source }) => source.session(r.host, r.key) }),
    anchor: t.field({
      type: AtomRef,
      nullable: true,
      description: 'the prompt that opened the goal',
      resolve: async (r, _, { source }) => {
        const trigger = (await turnOf(r, source))?.trigger;
        return trigger ? atomNode(r.host, r.key)(trigger) : null;
      },
    }),
    trail: t.field({
      type: [TrailRef],
      description: "the goal's turn split at its inputs, oldest first",
      resolve: async (r, _, { source }) => ((await turnOf(r, source))?.segments ?? []).map((segment) => ({ ref: r, segment })),
    }),
  }),
});

interface TrailNode {
  ref: GoalRef;
  segment: import('../../spoke/model/types').Segment;
}

const TrailRef = builder.objectRef<TrailNode>('GoalTrailStep').implement({
  fields: (t) => ({
    index: t.int({ resolve: (s) => s.segment.index }),
    input: t.field({ type: AtomRef, nullable: true, resolve: (s) => (s.segment.input ? atomNode(s.ref.host, s.ref.key)(s.segment.input) : null) }),
    t: t.field({ type: 'DateTime', resolve: (s) => s.segment.t }),
    end: t.field({ type: 'DateTime', resolve: (s) => s.segment.end }),
    atomCount: t.int({ resolve: (s) => s.segment.atomCount }),
  }),
});

const FeedRef = builder.objectRef<Feed>('Feed').implement({
  description:
    'Top-level goals in three columns by rolled-up status, newest first. Working needs a sign of life, and holds at most one goal per session: its newest ask at work, with the older asks still at work as its parts (kind ASK).',
  fields: (t) => ({
    working: t.field({ type: [GoalRefType], resolve: (f) => f.working }),
    blocked: t.field({ type: [GoalRefType], description: 'the goals that need you', resolve: (f) => f.blocked }),
    completed: t.field({ type: [GoalRefType], resolve: (f) => f.completed }),
  }),
});

const FeedChangeRef = builder.objectRef<FeedChange>('FeedChange').implement({
  description:
    "A session's feed goals changed (new activity, a clear or an undo): all of the session's goals in the feed now, cleared ones left out (and completed ones before `completedSince`, when asked).",
  fields: (t) => ({
    sessionId: t.id({ resolve: (c) => sessionId(c.host, c.key) }),
    goals: t.field({ type: [GoalRefType], resolve: (c) => c.goals.map((goal) => ({ host: c.host, key: c.key, goal })) }),
  }),
});

builder.objectField(SessionRef, 'goals', (t) =>
  t.field({
    type: [GoalRefType],
    description: "the session's asks, oldest first",
    resolve: (s, _, { source }) => source.goals(s.host, s.key).map((goal) => ({ host: s.host, key: s.key, goal })),
  }),
);

builder.queryField('feed', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'merged', rule: 'feed' }),
    type: FeedRef,
    args: {
      hosts: t.arg.stringList({ description: 'only these hosts' }),
      since: t.arg.string({ description: 'RFC 3339; goals active since' }),
      completedFirst: t.arg.int({
        description: 'at most this many completed goals, the most recently updated (a long history holds tens of thousands); all when left out',
      }),
    },
    resolve: (_, args, { source }) => {
      const feed = source.feed(args.hosts ?? null, parseTime('since', args.since));
      return { ...feed, completed: keepFirst(feed.completed, completedLimit(args.completedFirst)) };
    },
  }),
);

builder.queryField('goal', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'byHost', arg: 'id' }),
    type: GoalRefType,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, { source }) => {
      const { host, key, anchor } = parseGoalId(String(id));
      if (!source.session(host, key)) return null;
      const goal = source.goals(host, key).find((g) => g.anchor === anchor);
      return goal ? { host, key, goal } : null;
    },
  }),
);

const ClearResultRef = builder.objectRef<{ batchId: string; cleared: number }>('ClearResult').implement({
  fields: (t) => ({
    batchId: t.exposeID('batchId', { description: 'pass to undoClear to put them back' }),
    cleared: t.exposeInt('cleared'),
  }),
});

const UndoResultRef = builder.objectRef<{ restored: number }>('UndoResult').implement({
  fields: (t) => ({ restored: t.exposeInt('restored') }),
});

builder.mutationField('clearGoals', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'inResolver' }),
    type: ClearResultRef,
    description: 'Takes goals out of the feed (kept in the state dir). Sending the same idempotencyKey again makes no second batch.',
    args: { ids: t.arg.idList({ required: true }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, { ids, idempotencyKey }, ctx) => {
      if (idempotencyKey.trim() === '') throw new GraphQLError('"idempotencyKey" must not be empty', { extensions: { code: 'BAD_USER_INPUT' } });
      const goals = ids.map((id) => parseGoalId(String(id)));
      const local = ctx.source.kernel().host.name;
      for (const host of new Set(goals.map((g) => g.host))) assertWritable(ctx.hosts, host, local);
      return clearAcrossHosts(goals, idempotencyKey, ctx);
    },
  }),
);

builder.mutationField('undoClear', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'inResolver' }),
    type: UndoResultRef,
    description: 'Puts a cleared batch back in the feed (on every host the clear reached).',
    args: { batchId: t.arg.id({ required: true }) },
    resolve: async (_, { batchId }, ctx) => {
      const local = ctx.source.kernel().host.name;
      const parts = batchParts(String(batchId), local);
      // the same gate as clearGoals, for every host the batch names, before any is asked
      for (const host of new Set(parts.map((p) => p.host))) assertWritable(ctx.hosts, host, local);
      const undone = await undoAcrossHosts(parts, ctx);
      if (!undone) throw new GraphQLError(`no cleared batch ${batchId}`, { extensions: { code: 'NOT_FOUND' } });
      return undone;
    },
  }),
);

builder.subscriptionField('feedChanged', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'merged', rule: 'changes' }),
    type: FeedChangeRef,
    args: {
      since: t.arg({
        type: 'DateTime',
        description: 'first the goals of each session changed at or after this time (to catch up after a gap), then the changes as they come',
      }),
      completedSince: t.arg({
        type: 'DateTime',
        description: 'leaves out of each change the completed goals last updated before this time (a page holding the newest few needs no older ones)',
      }),
    },
    subscribe: (_, { since, completedSince }, { source }) => source.feedChanged(since?.getTime() ?? null, completedSince?.getTime() ?? null),
    resolve: (change) => change,
  }),
);
