import { GraphQLError } from 'graphql';
import type { StreamFrame } from '../../spoke/model/source';
import { builder } from '../builder';
import { parseSessionId, sessionId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { AtomRef, atomNode } from './atom';

const FrameKindEnum = builder.enumType('StreamFrameKind', { values: ['SNAPSHOT', 'DELTA', 'STOPPED'] as const });
const ResetReasonEnum = builder.enumType('ResetReason', {
  values: ['FENCE_MISSING', 'EPOCH_MISMATCH', 'GENERATION_MISMATCH', 'SEQUENCE_RESET'] as const,
});

const StreamFrameRef = builder.objectRef<StreamFrame>('StreamFrame').implement({
  description:
    'One frame of a session stream. A SNAPSHOT is where to start (with reset: true, drop what you hold first); ' +
    'a DELTA carries the atoms after the previous frame. Resume after a drop with cursor, epoch and generation.',
  fields: (t) => ({
    sessionId: t.id({ resolve: (f) => sessionId(f.host, f.key) }),
    kind: t.field({ type: FrameKindEnum, resolve: (f) => f.kind }),
    reset: t.exposeBoolean('reset'),
    reason: t.field({ type: ResetReasonEnum, nullable: true, resolve: (f) => f.reason }),
    atoms: t.field({ type: [AtomRef], resolve: (f) => f.atoms.map(atomNode(f.host, f.key)) }),
    cursor: t.exposeInt('cursor', { description: 'sequence of the last atom you now hold' }),
    epoch: t.exposeInt('epoch'),
    generation: t.exposeInt('generation'),
  }),
});

builder.subscriptionField('sessionStream', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'byHost', arg: 'sessionId', resumable: true }),
    type: StreamFrameRef,
    description: "A session's atoms: a snapshot (the newest atoms, or those after `cursor`), then every new atom, in order, once.",
    args: {
      sessionId: t.arg.id({ required: true }),
      cursor: t.arg.int({ description: 'the last sequence you hold; omit to start from a snapshot' }),
      epoch: t.arg.int(),
      generation: t.arg.int(),
    },
    subscribe: (_, args, { source }) => {
      const { host, key } = parseSessionId(String(args.sessionId));
      if (!source.session(host, key)) {
        throw new GraphQLError(`no session ${args.sessionId}`, { extensions: { code: 'NOT_FOUND' } });
      }
      return source.sessionStream({ host, key, cursor: args.cursor ?? null, epoch: args.epoch ?? null, generation: args.generation ?? null });
    },
    resolve: (frame) => frame,
  }),
);
