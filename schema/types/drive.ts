import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLError } from 'graphql';
import type { START_MODES } from '../../spoke/drive/driving';
import type { SentPrompt } from '../../spoke/model/drive';
import type { ProjectDirectory } from '../../spoke/model/source';
import { builder, type Context } from '../builder';
import { parseSessionId, sessionId } from '../ids';
import { actOnHost } from '../remote/act-on-host';
import { hubRoute } from '../remote/hub-route';
import { SessionRef } from './session';

// Driving sessions from here: start one in a directory, send a prompt, interrupt, resume. The
// kernel on the session's machine does it (spoke/drive); on a hub the action goes to that host
// once its trust tier allows it (an isolated host is refused before anything is sent).

interface SentPromptNode {
  host: string;
  prompt: SentPrompt;
}

const HolderEnum = builder.enumType('SessionHolder', {
  description: "Who holds a session's transcript: one writer at a time.",
  values: {
    LOOM: { description: 'a Claude Code process this kernel started: prompts go into its input' },
    TERMINAL: { description: "a terminal (its hooks say it is open): prompts wait for its turn end, delivered by Loom's Stop hook" },
    NONE: { description: 'nothing: resume it to go on' },
  } as const,
});

const SentPromptStateEnum = builder.enumType('SentPromptState', {
  values: {
    QUEUED: { description: "waits for the terminal session's turn to end (reason says more)" },
    PENDING: { description: 'handed to Claude Code, not yet in the transcript' },
    DELIVERED: { description: 'in the transcript: atomId is the line it became' },
    DROPPED: { description: 'it never will be (reason says why): send it again, or dismiss it' },
  } as const,
});

const PromptDeliveryEnum = builder.enumType('PromptDelivery', {
  values: {
    INPUT: { description: 'into the input of a process Loom drives: read at its next tool or turn boundary' },
    STOP_HOOK: { description: "as the reason of a terminal session's Stop hook, at its turn end" },
  } as const,
});

const SentPromptRef = builder.objectRef<SentPromptNode>('SentPrompt').implement({
  description: 'A prompt sent through Loom, from the send until the transcript settles it: never retired by a timer.',
  fields: (t) => ({
    id: t.id({ resolve: (n) => `${n.host}:${n.prompt.id}` }),
    sessionId: t.id({ resolve: (n) => sessionId(n.host, n.prompt.sessionKey) }),
    text: t.string({ resolve: (n) => n.prompt.text }),
    delivery: t.field({ type: PromptDeliveryEnum, resolve: (n) => n.prompt.delivery }),
    state: t.field({ type: SentPromptStateEnum, resolve: (n) => n.prompt.state }),
    sentAt: t.field({ type: 'DateTime', resolve: (n) => n.prompt.sentAt }),
    sentBy: t.string({ description: '`local` or `hub:<name>`', resolve: (n) => n.prompt.sentBy }),
    atomId: t.id({ nullable: true, resolve: (n) => (n.prompt.atomUuid ? `${sessionId(n.host, n.prompt.sessionKey)}:${n.prompt.atomUuid}` : null) }),
    reason: t.string({ nullable: true, resolve: (n) => n.prompt.reason }),
  }),
});

builder.objectFields(SessionRef, (t) => ({
  holder: t.field({
    type: HolderEnum,
    description: 'who holds the transcript now: what sendPrompt, interrupt and resumeSession may do',
    resolve: (s, _, { driving }) => driving.holder(s.key),
  }),
  driving: t.boolean({
    description: 'a process this kernel drives is in the middle of a turn (interrupt stops it)',
    resolve: (s, _, { driving }) => driving.working(s.key),
  }),
  sentPrompts: t.field({
    type: [SentPromptRef],
    description: 'prompts sent through Loom: the open ones, and the last few settled',
    resolve: (s, _, { driving }) => driving.prompts.of(s.key).map((prompt) => ({ host: s.host, prompt })),
  }),
}));

const ProjectDirectoryRef = builder.objectRef<ProjectDirectory>('ProjectDirectory').implement({
  description: 'A directory sessions ran in: a place to start one.',
  fields: (t) => ({
    dir: t.exposeString('dir'),
    sessionCount: t.exposeInt('sessionCount'),
    lastActiveAt: t.field({ type: 'DateTime', resolve: (d) => d.lastActiveAt }),
  }),
});

builder.queryField('projectDirectories', (t) =>
  t.field({
    type: [ProjectDirectoryRef],
    extensions: hubRoute({ kind: 'byHost', arg: 'host' }),
    description: "The directories a host's sessions ran in, most recently active first: this kernel's, or a linked host's (`host`).",
    args: { host: t.arg.string(), first: t.arg.int({ defaultValue: 30 }) },
    resolve: (_, { first }, { source }) => source.projectDirectories(Math.max(0, Math.min(first ?? 30, 200))),
  }),
);

builder.subscriptionField('sentPromptsChanged', (t) =>
  t.field({
    type: [SentPromptRef],
    extensions: hubRoute({ kind: 'byHost', arg: 'sessionId' }),
    description: "A session's sent prompts now, then again each time one is sent or settles.",
    args: { sessionId: t.arg.id({ required: true }) },
    subscribe: (_, args, { driving }) => {
      const { key } = parseSessionId(String(args.sessionId));
      return driving.prompts.follow(key);
    },
    resolve: (prompts, args) => {
      const { host } = parseSessionId(String(args.sessionId));
      return prompts.map((prompt) => ({ host, prompt }));
    },
  }),
);

const PermissionModeEnum = builder.enumType('StartPermissionMode', {
  description: 'The modes a session may be started in from Loom: none skips permission prompts.',
  values: { DEFAULT: { value: 'default' }, ACCEPT_EDITS: { value: 'acceptEdits' }, PLAN: { value: 'plan' } } as const satisfies Record<
    string,
    { value: (typeof START_MODES)[number] }
  >,
});

const StartedSessionRef = builder.objectRef<{ host: string; key: string; prompt: SentPrompt }>('StartedSession').implement({
  fields: (t) => ({
    sessionId: t.id({ resolve: (s) => sessionId(s.host, s.key) }),
    session: t.field({
      type: SessionRef,
      nullable: true,
      description: 'null until its transcript has been read (see sessionsChanged)',
      resolve: (s, _, { source }) => source.session(s.host, s.key),
    }),
    prompt: t.field({ type: SentPromptRef, resolve: (s) => ({ host: s.host, prompt: s.prompt }) }),
  }),
});

const localHost = (ctx: Context) => ctx.source.kernel().host.name;

function requireKey(idempotencyKey: string): void {
  if (idempotencyKey.trim() === '') throw new GraphQLError('"idempotencyKey" must not be empty', { extensions: { code: 'BAD_USER_INPUT' } });
}

/**
 * Acts here when the host is this kernel, else sends the same mutation to the host (after its
 * trust tier allows it), without the arguments in `drop` (a `host` naming it by the hub's alias).
 */
function onHost<T>(
  ctx: Context,
  info: GraphQLResolveInfo,
  at: { host: string; sessionId?: string; summary: string; drop?: string[] },
  local: () => Promise<T>,
): Promise<T> {
  return at.host === localHost(ctx) ? local() : actOnHost<T>(ctx, info, at);
}

builder.mutationField('startSession', (t) =>
  t.field({
    type: StartedSessionRef,
    extensions: hubRoute({ kind: 'inResolver' }),
    description:
      "Starts Claude Code in a directory on a host (this kernel's when omitted) with a first prompt, through the Agent SDK and the host's own `claude` and login. " +
      'Answers once Claude Code says which session it writes.',
    args: {
      host: t.arg.string(),
      dir: t.arg.string({ required: true }),
      prompt: t.arg.string({ required: true }),
      model: t.arg.string(),
      permissionMode: t.arg({ type: PermissionModeEnum }),
      idempotencyKey: t.arg.string({ required: true }),
    },
    resolve: (_, args, ctx, info) => {
      requireKey(args.idempotencyKey);
      const host = args.host ?? localHost(ctx);
      return onHost(ctx, info, { host, summary: `start in ${args.dir}`, drop: ['host'] }, async () => {
        const request = { dir: args.dir, prompt: args.prompt, model: args.model ?? null, permissionMode: args.permissionMode ?? null };
        const started = await ctx.driving.start(request, ctx.actor, args.idempotencyKey);
        return { host, ...started };
      });
    },
  }),
);

builder.mutationField('sendPrompt', (t) =>
  t.field({
    type: SentPromptRef,
    extensions: hubRoute({ kind: 'inResolver' }),
    description:
      'Sends a prompt to a session: into the input of a process Loom drives (read at its next tool boundary, as Claude Code reads typed input), ' +
      "or, for a session a terminal holds, queued for its turn end (Loom's Stop hook delivers it). CONFLICT when nothing holds it: resume it.",
    args: { sessionId: t.arg.id({ required: true }), text: t.arg.string({ required: true }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => {
      requireKey(args.idempotencyKey);
      const { host, key } = parseSessionId(String(args.sessionId));
      return onHost(ctx, info, { host, sessionId: String(args.sessionId), summary: 'send a prompt' }, async () => ({
        host,
        prompt: await ctx.driving.send(key, args.text, ctx.actor, args.idempotencyKey),
      }));
    },
  }),
);

builder.mutationField('interrupt', (t) =>
  t.field({
    type: 'Boolean',
    extensions: hubRoute({ kind: 'inResolver' }),
    description: 'Interrupts the turn of a session Loom drives, as Esc does at the terminal; true when a turn was running. CONFLICT when Loom does not run it.',
    args: { sessionId: t.arg.id({ required: true }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => {
      requireKey(args.idempotencyKey);
      const { host, key } = parseSessionId(String(args.sessionId));
      return onHost(ctx, info, { host, sessionId: String(args.sessionId), summary: 'interrupt' }, () =>
        ctx.driving.interrupt(key, ctx.actor, args.idempotencyKey),
      );
    },
  }),
);

builder.mutationField('resumeSession', (t) =>
  t.field({
    type: SentPromptRef,
    extensions: hubRoute({ kind: 'inResolver' }),
    description:
      'Resumes a session no process holds with a prompt, in its own directory; it stays the same session. ' +
      'CONFLICT when a process holds it (two writers would corrupt its transcript): send the prompt instead.',
    args: { sessionId: t.arg.id({ required: true }), prompt: t.arg.string({ required: true }), idempotencyKey: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => {
      requireKey(args.idempotencyKey);
      const { host, key } = parseSessionId(String(args.sessionId));
      return onHost(ctx, info, { host, sessionId: String(args.sessionId), summary: 'resume' }, async () => ({
        host,
        prompt: await ctx.driving.resume(key, args.prompt, ctx.actor, args.idempotencyKey),
      }));
    },
  }),
);
