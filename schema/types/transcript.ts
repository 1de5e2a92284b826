import { GraphQLError } from 'graphql';
import type { TranscriptPage } from '../../spoke/model/source';
import { builder } from '../builder';
import { parseSessionId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { parseTime } from '../time';
import { AtomRef, AtomTypeEnum, atomNode } from './atom';

// Bounded reads of one session: pages walking back from the newest atom, and filtered events.

interface PageNode {
  host: string;
  key: string;
  page: TranscriptPage;
}

const TranscriptPageRef = builder.objectRef<PageNode>('TranscriptPage').implement({
  description: "One chronological page of a session's active path. Walk backwards with nextBeforeSequence.",
  fields: (t) => ({
    entries: t.field({ type: [AtomRef], resolve: (p) => p.page.entries.map(atomNode(p.host, p.key)) }),
    epoch: t.int({ resolve: (p) => p.page.epoch }),
    generation: t.int({ resolve: (p) => p.page.generation }),
    maxSequence: t.int({ description: 'sequence of the newest atom of the session', resolve: (p) => p.page.maxSequence }),
    hasOlder: t.boolean({ resolve: (p) => p.page.hasOlder }),
    nextBeforeSequence: t.int({
      nullable: true,
      description: 'pass as beforeSequence for the page before this one',
      resolve: (p) => p.page.nextBeforeSequence,
    }),
  }),
});

const badInput = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

builder.queryField('transcript', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'byHost', arg: 'sessionId' }),
    type: TranscriptPageRef,
    args: {
      sessionId: t.arg.id({ required: true }),
      limit: t.arg.int({ defaultValue: 200, description: '1…1000' }),
      beforeSequence: t.arg.int({ description: 'only atoms before this sequence; omit for the newest' }),
    },
    resolve: async (_, args, { source }) => {
      const { host, key } = parseSessionId(String(args.sessionId));
      const page = await source.transcript(host, key, args.limit ?? 200, args.beforeSequence ?? null);
      return { host, key, page };
    },
  }),
);

builder.queryField('events', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'byHost', arg: 'sessionId' }),
    type: [AtomRef],
    description: "A session's atoms filtered by type, turn and time: the newest `limit` matches, oldest first.",
    args: {
      sessionId: t.arg.id({ required: true }),
      type: t.arg({ type: AtomTypeEnum }),
      turnId: t.arg.id(),
      since: t.arg.string({ description: 'RFC 3339; only atoms at or after it' }),
      afterSequence: t.arg.int(),
      limit: t.arg.int({ defaultValue: 200, description: '1…1000' }),
    },
    resolve: async (_, args, { source }) => {
      const { host, key } = parseSessionId(String(args.sessionId));
      let turnAnchor: string | null = null;
      if (args.turnId != null) {
        const parts = String(args.turnId).split(':');
        if (parts.length !== 3 || parts[0] !== host || parts[1] !== key)
          throw badInput(`"turnId" must be a turn id of ${args.sessionId}, got "${args.turnId}"`);
        turnAnchor = parts[2];
      }
      const rows = await source.events(host, key, {
        type: args.type ?? null,
        turnAnchor,
        since: parseTime('since', args.since),
        afterSequence: args.afterSequence ?? null,
        limit: args.limit ?? 200,
      });
      return rows.map(atomNode(host, key));
    },
  }),
);
