import type { GraphQLResolveInfo } from 'graphql';
import { GraphQLError } from 'graphql';
import type { Tag, View, Views } from '../../spoke/model/views';
import { MAX_TAGS, type Written } from '../../spoke/views/views-store';
import { builder, type Context } from '../builder';
import { parseSessionId, sessionId } from '../ids';
import { actOnHost } from '../remote/act-on-host';
import { hubRoute } from '../remote/hub-route';
import { HostRef, hostNamed } from './host';
import { SessionRef } from './session';

// Tags and saved views. Each host keeps its own (spoke/views/views-store.ts): a tag's members
// are sessions of its host, and through a hub an edit goes to the host the tag or session is on.
// Targeted edits merge and answer the seq they produced; a whole write (the tags' order, a saved
// view) names the seq it was made from and gets CONFLICT when the store moved on.

interface OnHost<T> {
  host: string;
  item: T;
}

const itemId = (host: string, id: string) => `${host}:${id}`;

/** `host:id` of a tag or a view, split. */
function parseItemId(id: string, what: 'tag' | 'view'): { host: string; id: string } {
  const [host, item, ...rest] = id.split(':');
  if (!host || !item || rest.length > 0) {
    throw new GraphQLError(`"${id}" is not a ${what} id; ${what} ids look like "host:${what}Id"`, { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return { host, id: item };
}

export const TagRef = builder.objectRef<OnHost<Tag>>('Tag').implement({
  description: "A named, coloured set of one host's sessions; a session may carry several.",
  fields: (t) => ({
    id: t.id({ resolve: ({ host, item }) => itemId(host, item.id) }),
    name: t.string({ resolve: ({ item }) => item.name }),
    color: t.string({ description: '`#rrggbb`', resolve: ({ item }) => item.color }),
    memberIds: t.idList({
      description: 'the sessions it holds, in the order they joined (a session this kernel no longer holds stays listed)',
      resolve: ({ host, item }) => item.members.map((key) => sessionId(host, key)),
    }),
  }),
});

const SessionOrderEnum = builder.enumType('SessionOrder', {
  values: { RECENT: { description: 'most recently active first' }, NAME: {}, PROJECT: { description: 'by directory, then most recent' } } as const,
});

const ViewRef = builder.objectRef<OnHost<View>>('View').implement({
  description: 'A saved lens over the session list: which sessions (a filter, tags) and in what order.',
  fields: (t) => ({
    id: t.id({ resolve: ({ host, item }) => itemId(host, item.id) }),
    name: t.string({ resolve: ({ item }) => item.name }),
    filter: t.string({ description: "text the list is filtered by, as the dashboard's filter field takes it", resolve: ({ item }) => item.filter }),
    tagIds: t.idList({
      description: 'sessions carrying any of these tags; none for every session',
      resolve: ({ host, item }) => item.tagIds.map((id) => itemId(host, id)),
    }),
    untagged: t.boolean({ description: 'also the sessions that carry no tag', resolve: ({ item }) => item.untagged }),
    order: t.field({ type: SessionOrderEnum, resolve: ({ item }) => item.order }),
  }),
});

const ViewsRef = builder.objectRef<OnHost<Views>>('Views').implement({
  description: "One host's tags (in the order the user put them) and saved views, at one seq.",
  fields: (t) => ({
    host: t.field({ type: HostRef, resolve: ({ host }, _, { source }) => hostNamed(source.hosts(), host) }),
    seq: t.int({ description: "the store's write sequence: every accepted write makes it one more", resolve: ({ item }) => item.seq }),
    tags: t.field({ type: [TagRef], resolve: ({ host, item }) => item.tags.map((tag) => ({ host, item: tag })) }),
    views: t.field({ type: [ViewRef], resolve: ({ host, item }) => item.views.map((view) => ({ host, item: view })) }),
  }),
});

const ViewsWriteRef = builder.objectRef<OnHost<Written<Tag | View | null>>>('ViewsWrite').implement({
  description: 'A write to tags or views, acknowledged: the seq it produced and the store as it left it.',
  fields: (t) => ({
    seq: t.int({ resolve: ({ item }) => item.seq }),
    tag: t.field({
      type: TagRef,
      nullable: true,
      description: 'the tag it created or changed',
      resolve: ({ host, item }) => (isTag(item.value) ? { host, item: item.value } : null),
    }),
    view: t.field({
      type: ViewRef,
      nullable: true,
      description: 'the view it saved',
      resolve: ({ host, item }) => (isView(item.value) ? { host, item: item.value } : null),
    }),
    views: t.field({ type: ViewsRef, resolve: ({ host, item }) => ({ host, item: item.views }) }),
  }),
});

const isTag = (value: unknown): value is Tag => typeof value === 'object' && value !== null && 'members' in value;
const isView = (value: unknown): value is View => typeof value === 'object' && value !== null && 'untagged' in value;

builder.objectFields(SessionRef, (t) => ({
  tags: t.field({
    type: [TagRef],
    description: "the tags it carries, in its host's tag order",
    resolve: (s, _, { views }) => views.get().tags.flatMap((tag) => (tag.members.includes(s.key) ? [{ host: s.host, item: tag }] : [])),
  }),
  loomName: t.string({
    nullable: true,
    description: 'the name given it in Loom (renameSession), shown instead of `name`; the transcript is never written',
    resolve: (s, _, { views }) => views.get().sessionNames[s.key] ?? null,
  }),
}));

const localHost = (ctx: Context) => ctx.source.kernel().host.name;

/** Writes here when the host is this kernel's, else sends the mutation to the host (its trust tier first). */
function onHost<T>(ctx: Context, info: GraphQLResolveInfo, at: { host: string; summary: string; drop?: string[] }, local: () => T): Promise<T> | T {
  return at.host === localHost(ctx) ? local() : actOnHost<T>(ctx, info, at);
}

const write = <T extends Tag | View | null>(host: string, written: Written<T>) => ({ host, item: written as Written<Tag | View | null> });

/** The session and tags of one edit, on one host: a tag never holds another host's session. */
function sameHost(session: string, ...tags: string[]): { host: string; key: string; tagIds: string[] } {
  const { host, key } = parseSessionId(session);
  const parsed = tags.map((id) => parseItemId(id, 'tag'));
  const other = parsed.find((tag) => tag.host !== host);
  if (other)
    throw new GraphQLError(`a tag of ${other.host} holds only ${other.host}'s sessions; this session is on ${host}`, {
      extensions: { code: 'BAD_USER_INPUT' },
    });
  return { host, key, tagIds: parsed.map((tag) => tag.id) };
}

builder.queryField('views', (t) =>
  t.field({
    type: ViewsRef,
    extensions: hubRoute({ kind: 'byHost', arg: 'host' }),
    description: "A host's tags and saved views: this kernel's, or a linked host's (`host`).",
    args: { host: t.arg.string() },
    resolve: (_, __, ctx) => ({ host: localHost(ctx), item: ctx.views.get() }),
  }),
);

builder.subscriptionField('viewsChanged', (t) =>
  t.field({
    type: ViewsRef,
    extensions: hubRoute({ kind: 'byHost', arg: 'host' }),
    description: "A host's tags and views now, then again after each write (writes in a burst collapse into the last).",
    args: { host: t.arg.string() },
    subscribe: (_, __, { views }) => views.follow(),
    resolve: (views: Views, _, ctx) => ({ host: localHost(ctx), item: views }),
  }),
);

const mutation = builder.mutationField.bind(builder);
const WRITE = { type: ViewsWriteRef, extensions: hubRoute({ kind: 'inResolver' }) } as const;

mutation('createTag', (t) =>
  t.field({
    ...WRITE,
    description: `Creates a tag on a host (this kernel's when omitted). CONFLICT when a tag of that name exists there, or the host has its ${MAX_TAGS} tags.`,
    args: { host: t.arg.string(), name: t.arg.string({ required: true }), color: t.arg.string({ required: true, description: '`#rrggbb`' }) },
    resolve: (_, args, ctx, info) => {
      const host = args.host ?? localHost(ctx);
      return onHost(ctx, info, { host, summary: `create tag ${args.name}`, drop: ['host'] }, () => write(host, ctx.views.createTag(args.name, args.color)));
    },
  }),
);

mutation('renameTag', (t) =>
  t.field({
    ...WRITE,
    description: 'Renames a tag. CONFLICT when another tag of its host has that name.',
    args: { id: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const tag = parseItemId(String(args.id), 'tag');
      return onHost(ctx, info, { host: tag.host, summary: `rename tag to ${args.name}` }, () => write(tag.host, ctx.views.renameTag(tag.id, args.name)));
    },
  }),
);

mutation('recolorTag', (t) =>
  t.field({
    ...WRITE,
    args: { id: t.arg.id({ required: true }), color: t.arg.string({ required: true, description: '`#rrggbb`' }) },
    resolve: (_, args, ctx, info) => {
      const tag = parseItemId(String(args.id), 'tag');
      return onHost(ctx, info, { host: tag.host, summary: `recolor tag ${args.color}` }, () => write(tag.host, ctx.views.recolorTag(tag.id, args.color)));
    },
  }),
);

mutation('deleteTag', (t) =>
  t.field({
    ...WRITE,
    description: 'Deletes a tag (its sessions stay); saved views stop naming it.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const tag = parseItemId(String(args.id), 'tag');
      return onHost(ctx, info, { host: tag.host, summary: 'delete tag' }, () => write(tag.host, { ...ctx.views.deleteTag(tag.id), value: null }));
    },
  }),
);

mutation('tagSession', (t) =>
  t.field({
    ...WRITE,
    description: 'Adds a session to a tag of its host (a session already in it stays, once).',
    args: { tagId: t.arg.id({ required: true }), sessionId: t.arg.id({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const { host, key, tagIds } = sameHost(String(args.sessionId), String(args.tagId));
      return onHost(ctx, info, { host, summary: 'tag a session' }, () => write(host, ctx.views.addMember(tagIds[0], key)));
    },
  }),
);

mutation('untagSession', (t) =>
  t.field({
    ...WRITE,
    args: { tagId: t.arg.id({ required: true }), sessionId: t.arg.id({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const { host, key, tagIds } = sameHost(String(args.sessionId), String(args.tagId));
      return onHost(ctx, info, { host, summary: 'untag a session' }, () => write(host, ctx.views.removeMember(tagIds[0], key)));
    },
  }),
);

mutation('moveSessionTag', (t) =>
  t.field({
    ...WRITE,
    description: 'Moves a session from one tag to another in one write ("Move to"): it joins `toTagId` and leaves `fromTagId`.',
    args: { sessionId: t.arg.id({ required: true }), fromTagId: t.arg.id({ required: true }), toTagId: t.arg.id({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const { host, key, tagIds } = sameHost(String(args.sessionId), String(args.fromTagId), String(args.toTagId));
      return onHost(ctx, info, { host, summary: 'move a session between tags' }, () => {
        const moved = ctx.views.moveMember(key, tagIds[0], tagIds[1]);
        return write(host, { ...moved, value: moved.value.at(-1) ?? null });
      });
    },
  }),
);

mutation('renameSession', (t) =>
  t.field({
    ...WRITE,
    description: 'Names a session in Loom (`Session.loomName`); an empty name gives it back its own. The transcript is never written.',
    args: { sessionId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const { host, key } = parseSessionId(String(args.sessionId));
      return onHost(ctx, info, { host, summary: 'rename a session' }, () => write(host, { ...ctx.views.nameSession(key, args.name), value: null }));
    },
  }),
);

mutation('setTagOrder', (t) =>
  t.field({
    ...WRITE,
    description: "The order of a host's tags, written whole (every tag once). CONFLICT when the store is no longer at `expectedSeq`.",
    args: { host: t.arg.string(), tagIds: t.arg.idList({ required: true }), expectedSeq: t.arg.int({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const host = args.host ?? localHost(ctx);
      return onHost(ctx, info, { host, summary: 'reorder tags', drop: ['host'] }, () => {
        const ids = args.tagIds.map((id) => parseItemId(String(id), 'tag').id);
        return write(host, { ...ctx.views.setTagOrder(ids, args.expectedSeq), value: null });
      });
    },
  }),
);

const ViewInput = builder.inputType('ViewInput', {
  fields: (t) => ({
    id: t.id({ description: 'the view to replace; none for a new one' }),
    name: t.string({ required: true }),
    filter: t.string({ defaultValue: '' }),
    tagIds: t.idList({ defaultValue: [] }),
    untagged: t.boolean({ defaultValue: false }),
    order: t.field({ type: SessionOrderEnum, defaultValue: 'RECENT' }),
  }),
});

mutation('saveView', (t) =>
  t.field({
    ...WRITE,
    description: 'Saves a view whole, new or replacing one (`view.id`). CONFLICT when the store is no longer at `expectedSeq`.',
    args: { host: t.arg.string(), view: t.arg({ type: ViewInput, required: true }), expectedSeq: t.arg.int({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const host = args.host ?? localHost(ctx);
      return onHost(ctx, info, { host, summary: `save view ${args.view.name}`, drop: ['host'] }, () => {
        const { view } = args;
        const lens = {
          filter: view.filter ?? '',
          tagIds: (view.tagIds ?? []).map((id) => parseItemId(String(id), 'tag').id),
          untagged: view.untagged ?? false,
          order: view.order ?? 'RECENT',
        };
        const id = view.id == null ? null : parseItemId(String(view.id), 'view').id;
        return write(host, ctx.views.saveView({ id, name: view.name }, lens, args.expectedSeq));
      });
    },
  }),
);

mutation('deleteView', (t) =>
  t.field({
    ...WRITE,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_, args, ctx, info) => {
      const view = parseItemId(String(args.id), 'view');
      return onHost(ctx, info, { host: view.host, summary: 'delete view' }, () => write(view.host, { ...ctx.views.deleteView(view.id), value: null }));
    },
  }),
);
