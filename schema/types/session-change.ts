import type { SessionChange } from '../../spoke/model/source';
import { builder } from '../builder';
import { sessionId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { SessionRef } from './session';

const ChangeKindEnum = builder.enumType('SessionChangeKind', { values: ['ADDED', 'UPDATED', 'REMOVED'] as const });

const SessionChangeRef = builder.objectRef<SessionChange>('SessionChange').implement({
  fields: (t) => ({
    kind: t.field({ type: ChangeKindEnum, resolve: (c) => c.kind }),
    sessionId: t.id({ resolve: (c) => sessionId(c.host, c.key) }),
    session: t.field({ type: SessionRef, nullable: true, description: 'null when REMOVED', resolve: (c) => c.session }),
  }),
});

builder.subscriptionField('sessionsVersion', (t) =>
  t.int({
    extensions: hubRoute({ kind: 'local' }),
    description:
      "This kernel's own sessions' version: at once, then each time any of its sessions appears, changes or goes away. Whoever keeps a copy of a session list reads it again when the version moves (a hub does, for its linked hosts).",
    subscribe: (_, __, { source }) => source.sessionsVersion(),
    resolve: (version) => version,
  }),
);

builder.subscriptionField('sessionsChanged', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'merged', rule: 'changes' }),
    type: SessionChangeRef,
    description: 'A session appeared, changed (new atoms, a new name…) or went away.',
    args: {
      since: t.arg({
        type: 'DateTime',
        description: 'first an UPDATED for each session changed at or after this time (to catch up after a gap), then the changes as they come',
      }),
    },
    subscribe: (_, { since }, { source }) => source.sessionsChanged(since?.getTime() ?? null),
    resolve: (change) => change,
  }),
);
