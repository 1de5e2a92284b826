import type { ActionRecord } from '../../spoke/act/audit-log';
import type { Away } from '../../spoke/act/away';
import { builder } from '../builder';
import { actOnHost } from '../remote/act-on-host';
import { hubRoute } from '../remote/hub-route';

// The audit log and the away switch of this kernel. A hub shows its own: what it sent where;
// each host keeps the log of what was done there.

const ActionRef = builder.objectRef<ActionRecord>('Action').implement({
  description: 'One action taken through this kernel, as its audit log keeps it.',
  fields: (t) => ({
    seq: t.exposeInt('seq', { description: 'its place in this kernel’s log, from 1' }),
    at: t.field({ type: 'DateTime', resolve: (a) => a.at }),
    actor: t.exposeString('actor', { description: '`local` (this machine’s token) or `hub:<name>` (a hub acting through its link)' }),
    action: t.exposeString('action', {
      description: 'the mutation: allowTool, denyTool, answerQuestion, approvePlan, rejectPlan, setAway, startSession, sendPrompt, interrupt, resumeSession',
    }),
    host: t.exposeString('host', { description: 'the host it was for' }),
    sessionId: t.exposeID('sessionId', { nullable: true }),
    requestId: t.exposeID('requestId', { nullable: true }),
    summary: t.exposeString('summary'),
    result: t.exposeString('result', { description: 'OK, or the error code it ended with (CONFLICT, FORBIDDEN, …)' }),
    message: t.exposeString('message', { nullable: true }),
  }),
});

builder.queryField('actions', (t) =>
  t.field({
    type: [ActionRef],
    extensions: hubRoute({ kind: 'byHost', arg: 'host' }),
    description: "A kernel's audit log, newest first: this one's, or a linked host's (`host`).",
    args: { host: t.arg.string(), since: t.arg({ type: 'DateTime' }), first: t.arg.int({ defaultValue: 50 }) },
    resolve: (_, { since, first }, { actions }) => actions.actions(since ? since.getTime() : null, Math.max(0, Math.min(first ?? 50, 500))),
  }),
);

const AwayRef = builder.objectRef<Away>('Away').implement({
  description: "Whether this machine's person is away: a background subagent's permission prompt is then held for an answer from elsewhere.",
  fields: (t) => ({
    on: t.exposeBoolean('on'),
    since: t.field({ type: 'DateTime', nullable: true, resolve: (a) => a.since }),
  }),
});

builder.queryField('away', (t) =>
  t.field({
    type: AwayRef,
    extensions: hubRoute({ kind: 'byHost', arg: 'host' }),
    description: "Whether this machine's person is away, or a linked host's (`host`).",
    args: { host: t.arg.string() },
    resolve: (_, __, { actions }) => actions.away(),
  }),
);

builder.mutationField('setAway', (t) =>
  t.field({
    type: AwayRef,
    extensions: hubRoute({ kind: 'inResolver' }),
    description:
      'Turns "away" on or off on this machine (the same switch as `loom away on|off`), or on a linked host whose trust tier lets this hub act there.',
    args: { on: t.arg.boolean({ required: true }), host: t.arg.string() },
    resolve: async (_, { on, host }, ctx, info) => {
      const local = ctx.source.kernel().host.name;
      if (!host || host === local) return ctx.actions.setAway(on, ctx.actor);
      return actOnHost<Away>(ctx, info, { host, summary: `sent to ${host}: ${on ? 'away' : 'back'}`, drop: ['host'] });
    },
  }),
);
