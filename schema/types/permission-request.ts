import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLError } from 'graphql';
import type { Answer } from '../../spoke/act/decisions';
import { type PLAN_EXIT_MODES, questionsOf } from '../../spoke/act/decisions';
import type { PermissionRequest } from '../../spoke/model/act';
import { builder, type Context } from '../builder';
import { parseSessionId } from '../ids';
import { actOnHost } from '../remote/act-on-host';
import { hubRoute } from '../remote/hub-route';
import { SessionRef } from './session';

// What blocks a session, answered from here: the permission requests Claude Code holds open
// through Loom's hook, the answers (each once, first one wins), the away switch and the audit
// log. On a hub an answer goes to the request's host, after that host's trust tier allows it.

export interface RequestNode {
  host: string;
  request: PermissionRequest;
}

const RequestStateEnum = builder.enumType('RequestState', {
  values: {
    PENDING: { description: 'Claude Code waits for an answer' },
    ANSWERED: { description: 'answered through Loom (answeredBy says who)' },
    ANSWERED_AT_TERMINAL: { description: 'the terminal answered first, or the session moved on' },
    WITHDRAWN: { description: 'Claude Code stopped asking: its hook ended (a deny at the terminal, an interrupt)' },
    EXPIRED: { description: "Loom stopped holding it; Claude Code's own dialog still asks" },
  } as const,
});
const RequestKindEnum = builder.enumType('RequestKind', { values: ['PERMISSION', 'QUESTION', 'PLAN_APPROVAL'] as const });
const PlanModeEnum = builder.enumType('PlanExitMode', {
  description: 'The permission mode a plan is approved into (Claude Code leaves plan mode to its earlier mode without one).',
  values: { DEFAULT: { value: 'default' }, ACCEPT_EDITS: { value: 'acceptEdits' }, AUTO: { value: 'auto' } } as const satisfies Record<
    string,
    { value: (typeof PLAN_EXIT_MODES)[number] }
  >,
});

const QuestionOptionRef = builder.objectRef<{ label: string; description: string }>('QuestionOption').implement({
  fields: (t) => ({ label: t.exposeString('label'), description: t.exposeString('description') }),
});
const QuestionRef = builder.objectRef<ReturnType<typeof questionsOf>[number]>('Question').implement({
  description: 'One question of an AskUserQuestion call.',
  fields: (t) => ({
    question: t.exposeString('question'),
    header: t.exposeString('header'),
    multiSelect: t.exposeBoolean('multiSelect'),
    options: t.field({ type: [QuestionOptionRef], resolve: (q) => q.options }),
  }),
});

const kindOf = (toolName: string) => (toolName === 'AskUserQuestion' ? 'QUESTION' : toolName === 'ExitPlanMode' ? 'PLAN_APPROVAL' : 'PERMISSION');

export const PermissionRequestRef = builder.objectRef<RequestNode>('PermissionRequest').implement({
  description: "A tool call Claude Code asks permission for through Loom's hook: a command, an edit, a question, a plan.",
  fields: (t) => ({
    id: t.id({ resolve: (r) => `${r.host}:${r.request.id}` }),
    sessionId: t.id({ resolve: (r, _, { actions }) => actions.sessionIdOf(r.request) }),
    session: t.field({
      type: SessionRef,
      nullable: true,
      resolve: (r, _, { actions, source }) => {
        const { host, key } = parseSessionId(actions.sessionIdOf(r.request));
        return source.session(host, key);
      },
    }),
    kind: t.field({ type: RequestKindEnum, resolve: (r) => kindOf(r.request.toolName) }),
    toolName: t.string({ resolve: (r) => r.request.toolName }),
    input: t.field({ type: 'JSON', description: 'the tool input as Claude Code sent it', resolve: (r) => r.request.input }),
    suggestions: t.field({ type: 'JSON', description: 'Claude Code\'s own permission updates for "always allow"', resolve: (r) => r.request.suggestions }),
    canAlwaysAllow: t.boolean({ description: 'Claude Code offered an "always allow" rule', resolve: (r) => r.request.suggestions.length > 0 }),
    questions: t.field({ type: [QuestionRef], description: "an AskUserQuestion's questions", resolve: (r) => questionsOf(r.request.input) }),
    plan: t.string({
      nullable: true,
      description: "an ExitPlanMode's plan (Markdown): as Claude Code put it in the input, or read from the plan file it names (only inside ~/.claude/plans)",
      resolve: (r) => r.request.plan,
    }),
    agentId: t.string({ nullable: true, description: 'the subagent that asks; null for the main session', resolve: (r) => r.request.agentId }),
    cwd: t.string({ nullable: true, resolve: (r) => r.request.cwd }),
    permissionMode: t.string({ nullable: true, resolve: (r) => r.request.permissionMode }),
    state: t.field({ type: RequestStateEnum, resolve: (r) => r.request.state }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.request.createdAt }),
    closedAt: t.field({ type: 'DateTime', nullable: true, resolve: (r) => r.request.closedAt }),
    answeredBy: t.string({ nullable: true, description: '`local`, `hub:<name>` or `terminal`', resolve: (r) => r.request.answeredBy }),
    answer: t.string({ nullable: true, description: 'what was answered, in a few words', resolve: (r) => r.request.answer }),
  }),
});

const localHost = (ctx: Context) => ctx.source.kernel().host.name;

builder.queryField('permissionRequests', (t) =>
  t.field({
    type: [PermissionRequestRef],
    extensions: hubRoute({ kind: 'merged', rule: 'list' }),
    description: 'Every request Claude Code holds open for an answer, oldest first.',
    resolve: (_, __, ctx) => ctx.actions.requests.pending().map((request) => ({ host: localHost(ctx), request })),
  }),
);

/** `host:uuid` */
function parseRequestId(id: string): { host: string; id: string } {
  const match = /^([^:]+):([\w-]+)$/.exec(id);
  if (!match) throw new GraphQLError(`"${id}" is not a request id; request ids look like "host:uuid"`, { extensions: { code: 'BAD_USER_INPUT' } });
  return { host: match[1], id: match[2] };
}

/**
 * Answers on this machine, or sends the answer to the request's host once its trust tier allows
 * it (an isolated host is refused before anything is sent). The hub's audit log records what it
 * sent and how it ended; the host's records the answer itself.
 */
async function answer(ctx: Context, info: GraphQLResolveInfo, requestId: string, given: Answer, idempotencyKey: string): Promise<RequestNode> {
  if (idempotencyKey.trim() === '') throw new GraphQLError('"idempotencyKey" must not be empty', { extensions: { code: 'BAD_USER_INPUT' } });
  const { host, id } = parseRequestId(requestId);
  const local = localHost(ctx);
  if (host === local) return { host, request: await ctx.actions.answer(id, given, ctx.actor, idempotencyKey) };
  return actOnHost<RequestNode>(ctx, info, { host, requestId, summary: `sent to ${host}` });
}

const ANSWER = { extensions: hubRoute({ kind: 'inResolver' }), type: PermissionRequestRef } as const;

builder.mutationField('allowTool', (t) =>
  t.field({
    ...ANSWER,
    description: 'Allows the tool call once, or always with the rules Claude Code itself suggested. The first answer wins: a later one gets CONFLICT.',
    args: { requestId: t.arg.id({ required: true }), always: t.arg.boolean({ defaultValue: false }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => answer(ctx, info, String(args.requestId), { kind: 'allow', always: args.always ?? false }, args.idempotencyKey),
  }),
);

builder.mutationField('denyTool', (t) =>
  t.field({
    ...ANSWER,
    description: 'Denies the tool call; Claude reads the message and goes on.',
    args: { requestId: t.arg.id({ required: true }), message: t.arg.string({ required: true }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => answer(ctx, info, String(args.requestId), { kind: 'deny', message: args.message }, args.idempotencyKey),
  }),
);

const QuestionAnswerInput = builder.inputType('QuestionAnswerInput', {
  fields: (t) => ({
    question: t.string({ required: true, description: 'the question text, as asked' }),
    selected: t.stringList({ required: true, description: 'the chosen option labels (one unless multiSelect), or your own words' }),
  }),
});

builder.mutationField('answerQuestion', (t) =>
  t.field({
    ...ANSWER,
    description: "Answers an AskUserQuestion: every question, with its options' labels or your own words.",
    args: {
      requestId: t.arg.id({ required: true }),
      answers: t.arg({ type: [QuestionAnswerInput], required: true }),
      idempotencyKey: t.arg.string({ required: true }),
    },
    resolve: (_, args, ctx, info) => answer(ctx, info, String(args.requestId), { kind: 'answerQuestion', answers: args.answers }, args.idempotencyKey),
  }),
);

builder.mutationField('approvePlan', (t) =>
  t.field({
    ...ANSWER,
    description: 'Approves the plan: Claude leaves plan mode (into `mode`, or the mode it had before) and starts.',
    args: { requestId: t.arg.id({ required: true }), mode: t.arg({ type: PlanModeEnum }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => answer(ctx, info, String(args.requestId), { kind: 'approvePlan', mode: args.mode ?? null }, args.idempotencyKey),
  }),
);

builder.mutationField('rejectPlan', (t) =>
  t.field({
    ...ANSWER,
    description: 'Keeps planning: Claude reads the message and plans again.',
    args: { requestId: t.arg.id({ required: true }), message: t.arg.string({ required: true }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => answer(ctx, info, String(args.requestId), { kind: 'rejectPlan', message: args.message }, args.idempotencyKey),
  }),
);
