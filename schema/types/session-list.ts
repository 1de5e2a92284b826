import type { SessionPage } from '../../spoke/model/source';
import type { SessionSummary } from '../../spoke/model/types';
import { builder } from '../builder';
import { hubRoute } from '../remote/hub-route';
import { SessionRef } from './session';

const SessionFilterInput = builder.inputType('SessionFilter', {
  fields: (t) => ({
    dir: t.string({ description: 'working directory, or a directory above it' }),
    text: t.string({ description: 'case-insensitive text in the name' }),
    updatedSince: t.field({ type: 'DateTime' }),
  }),
});

const PageInfoRef = builder.objectRef<{ hasNextPage: boolean; endCursor: string | null }>('PageInfo').implement({
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage'),
    endCursor: t.exposeString('endCursor', { nullable: true }),
  }),
});

const SessionEdgeRef = builder.objectRef<{ cursor: string; node: SessionSummary }>('SessionEdge').implement({
  fields: (t) => ({
    cursor: t.exposeString('cursor'),
    node: t.field({ type: SessionRef, resolve: (e) => e.node }),
  }),
});

const SessionConnectionRef = builder.objectRef<SessionPage>('SessionConnection').implement({
  fields: (t) => ({
    edges: t.field({ type: [SessionEdgeRef], resolve: (p) => p.sessions.map((node, i) => ({ node, cursor: p.cursors[i] })) }),
    nodes: t.field({ type: [SessionRef], resolve: (p) => p.sessions }),
    pageInfo: t.field({
      type: PageInfoRef,
      resolve: (p) => ({ hasNextPage: p.hasNextPage, endCursor: p.cursors[p.cursors.length - 1] ?? null }),
    }),
    totalCount: t.exposeInt('totalCount'),
  }),
});

builder.queryField('sessions', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'merged', rule: 'sessions' }),
    type: SessionConnectionRef,
    description: 'Top-level sessions (subagents hang off their parent), most recently active first.',
    args: {
      filter: t.arg({ type: SessionFilterInput }),
      first: t.arg.int({ defaultValue: 50 }),
      after: t.arg.string(),
    },
    resolve: (_, { filter, first, after }, { source }) =>
      source.sessions({ dir: filter?.dir, text: filter?.text, updatedSince: filter?.updatedSince?.getTime() ?? null }, first ?? 50, after ?? null),
  }),
);
