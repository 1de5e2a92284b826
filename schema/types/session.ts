import { GraphQLError } from 'graphql';
import type { LiveState } from '../../spoke/model/live';
import type { ParseError, SessionSummary, TranscriptFile } from '../../spoke/model/types';
import { builder } from '../builder';
import { parseSessionId, sessionId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { ToolResultBlock } from './content';
import { HostRef, hostNamed } from './host';
import { TurnRef } from './turn';

const FileRoleEnum = builder.enumType('FileRole', {
  values: { MAIN: { value: 'main' }, SUBAGENT: { value: 'subagent' } } as const,
});

const TranscriptFileRef = builder.objectRef<TranscriptFile>('TranscriptFile').implement({
  fields: (t) => ({
    path: t.exposeString('path'),
    fsid: t.exposeString('fsid', { description: "the file's name without .jsonl" }),
    role: t.field({ type: FileRoleEnum, resolve: (f) => f.role }),
    bytes: t.exposeInt('bytes', { description: 'bytes read so far (complete lines)' }),
    lines: t.exposeInt('lines'),
    rereads: t.exposeInt('rereads', { description: 'times the file was read again from the start after it shrank or was replaced' }),
    archived: t.exposeBoolean('archived', { description: "Claude Code deleted the file; it is read from Loom's copy" }),
  }),
});

const ParseErrorRef = builder.objectRef<ParseError>('ParseError').implement({
  description: 'A transcript line Loom could not read; the line was skipped, nothing else was lost.',
  fields: (t) => ({
    file: t.exposeString('file'),
    line: t.exposeInt('line'),
    offset: t.exposeInt('offset', { description: 'byte offset of the line in the file' }),
    reason: t.exposeString('reason'),
  }),
});

const LiveStateKindEnum = builder.enumType('LiveStateKind', {
  description: "From Claude Code's hooks (`loom hooks install`). UNKNOWN: no hook was ever seen for the session; Loom never guesses from silence.",
  values: ['WORKING', 'PERMISSION', 'COMPACTING', 'IDLE', 'CLOSED', 'UNKNOWN'] as const,
});

const LiveStateRef = builder.objectRef<LiveState>('LiveState').implement({
  fields: (t) => ({
    state: t.field({ type: LiveStateKindEnum, resolve: (l) => l.state }),
    since: t.field({ type: 'DateTime', nullable: true, resolve: (l) => l.since }),
    detail: t.exposeString('detail', { nullable: true, description: 'the permission request, the compaction trigger, why it ended…' }),
  }),
});

export const SessionRef = builder.objectRef<SessionSummary>('Session');

SessionRef.implement({
  description: 'One agent session: its transcript file(s) rebuilt into turns and atoms.',
  fields: (t) => ({
    id: t.id({ resolve: (s) => sessionId(s.host, s.key) }),
    key: t.exposeString('key', { description: 'stable identity on its host; never changes across resume or compaction' }),
    host: t.field({ type: HostRef, resolve: (s, _, { source }) => hostNamed(source.hosts(), s.host) }),
    name: t.exposeString('name'),
    dir: t.exposeString('dir', { description: 'working directory' }),
    project: t.exposeString('project', { description: "Claude Code's project folder name" }),
    gitBranch: t.exposeString('gitBranch', { nullable: true }),
    models: t.exposeStringList('models'),
    startedAt: t.field({ type: 'DateTime', resolve: (s) => s.startedAt }),
    updatedAt: t.field({ type: 'DateTime', resolve: (s) => s.updatedAt }),
    files: t.field({ type: [TranscriptFileRef], resolve: (s) => s.files }),
    archived: t.exposeBoolean('archived', {
      description: "every file of the session was deleted by Claude Code (cleanupPeriodDays): it is served from Loom's copy, and can no longer be resumed",
    }),
    turnCount: t.exposeInt('turnCount'),
    atomCount: t.exposeInt('atomCount'),
    generation: t.exposeInt('generation', { description: 'increases when the active path is rewritten' }),
    epoch: t.exposeInt('epoch', { description: "increases when the session's file set changes" }),
    turns: t.field({
      type: [TurnRef],
      args: { last: t.arg.int({ description: 'only the newest N turns' }) },
      resolve: async (s, { last }, { source }) => {
        if (last != null && last < 0) throw new GraphQLError('"last" must be 0 or more', { extensions: { code: 'BAD_USER_INPUT' } });
        const turns = await source.turns(s.host, s.key);
        return (last != null ? turns.slice(Math.max(0, turns.length - last)) : turns).map((turn) => ({ host: s.host, key: s.key, turn }));
      },
    }),
    subagents: t.field({
      type: [SessionRef],
      resolve: (s, _, { source }) => s.subagentKeys.map((k) => source.session(s.host, k)).filter((c) => c !== null),
    }),
    parent: t.field({
      type: SessionRef,
      nullable: true,
      resolve: (s, _, { source }) => (s.parentKey ? source.session(s.host, s.parentKey) : null),
    }),
    parseErrors: t.field({ type: [ParseErrorRef], resolve: (s) => s.parseErrors }),
    live: t.field({ type: LiveStateRef, resolve: (s) => s.live }),
  }),
});

builder.objectField(ToolResultBlock, 'subagent', (t) =>
  t.field({
    type: SessionRef,
    nullable: true,
    description: "a Task (Agent) call's: the subagent session it ran, when its result names it and this kernel holds its transcript",
    resolve: (b, _, { source }) => (b.subagent ? source.session(b.subagent.host, b.subagent.key) : null),
  }),
);

builder.queryField('session', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'byHost', arg: 'id' }),
    type: SessionRef,
    nullable: true,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, { id }, { source }) => {
      const { host, key } = parseSessionId(String(id));
      return source.session(host, key);
    },
  }),
);
