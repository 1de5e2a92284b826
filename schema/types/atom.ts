import type { Atom, AtomMeta, Author } from '../../spoke/model/types';
import { builder } from '../builder';
import { childId, parseAtomId } from '../ids';
import { hubRoute } from '../remote/hub-route';
import { ContentBlockRef } from './content';

/** An atom as the schema passes it around: with its session, and with content once loaded. */
export interface AtomNode {
  host: string;
  key: string;
  atom: AtomMeta | Atom;
  /** set when the atom is read from a rewound branch rather than the path */
  rewound?: boolean;
}

export const AtomTypeEnum = builder.enumType('AtomType', {
  values: {
    USER: { value: 'user' },
    ASSISTANT: { value: 'assistant' },
    SYSTEM: { value: 'system' },
    RESULT: { value: 'result' },
    IDLE: { value: 'idle' },
  } as const,
});

const AuthorKindEnum = builder.enumType('AuthorKind', {
  values: { HUMAN: { value: 'human' }, SDK: { value: 'sdk' }, SYSTEM: { value: 'system' }, PEER: { value: 'peer' } } as const,
});

const AuthorViaEnum = builder.enumType('AuthorVia', { values: ['LOOM'] as const });

const AuthorRef = builder.objectRef<Author>('Author').implement({
  description: 'Who wrote a user atom: a person, an SDK caller, the harness itself, or another session (peer).',
  fields: (t) => ({
    kind: t.field({ type: AuthorKindEnum, resolve: (a) => a.kind }),
    peer: t.string({ nullable: true, description: 'the sending session, for peer mail', resolve: (a) => (a.kind === 'peer' ? a.peer : null) }),
    via: t.field({
      type: AuthorViaEnum,
      nullable: true,
      description: "LOOM: a person's prompt Loom delivered to a terminal session at its turn end (its text follows Loom's marker)",
      resolve: (a) => (a.kind === 'human' && a.via === 'loom' ? 'LOOM' : null),
    }),
  }),
});

export const AtomRef = builder.objectRef<AtomNode>('Atom').implement({
  description:
    'One transcript line on the active path, in the shape of a streaming message. Loom adds two kinds of its own: ' +
    'IDLE spans from the hooks, and a SYSTEM atom of subtype new_chain where a new chain starts inside the same file ' +
    '(/clear, plan mode\'s "clear context and implement"): the lines before it stay the session\'s history.',
  fields: (t) => ({
    id: t.id({ resolve: (n) => childId(n.host, n.key, n.atom.uuid) }),
    uuid: t.string({ resolve: (n) => n.atom.uuid }),
    sequence: t.int({ description: 'position on the active path, 1…N; 0 for an atom of a rewound branch', resolve: (n) => n.atom.sequence }),
    rewound: t.boolean({
      description: 'true when read from a rewound branch (Turn.rewoundBranches): no longer on the active path',
      resolve: (n) => n.rewound === true,
    }),
    type: t.field({ type: AtomTypeEnum, resolve: (n) => n.atom.type }),
    subtype: t.string({ nullable: true, resolve: (n) => n.atom.subtype }),
    t: t.field({ type: 'DateTime', resolve: (n) => n.atom.t }),
    end: t.field({ type: 'DateTime', nullable: true, description: 'IDLE atoms: when the idle span ended', resolve: (n) => n.atom.idleUntil ?? null }),
    author: t.field({ type: AuthorRef, nullable: true, resolve: (n) => n.atom.author }),
    model: t.string({ nullable: true, resolve: (n) => n.atom.model }),
    stopReason: t.string({ nullable: true, resolve: (n) => n.atom.stopReason }),
    promptLine: t.string({ nullable: true, description: "a prompt's first line, as tabs and tables show it", resolve: (n) => n.atom.promptLine }),
    fsid: t.string({ nullable: true, description: 'the transcript file that holds this line', resolve: (n) => n.atom.fsid }),
    content: t.field({
      type: [ContentBlockRef],
      resolve: (n, _, ctx) => {
        if ('content' in n.atom) return n.atom.content;
        ctx.budget?.read(n.atom.length);
        return ctx.content.load({ host: n.host, key: n.key, atom: n.atom });
      },
    }),
  }),
});

export const atomNode =
  (host: string, key: string) =>
  (atom: AtomMeta | Atom): AtomNode => ({ host, key, atom });

builder.queryField('atom', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'byHost', arg: 'id' }),
    type: AtomRef,
    nullable: true,
    description: 'One atom by its id, on the active path or on a rewound branch: to read again a block asked for with maxChars, whole.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_, { id }, { source }) => {
      const { host, key, uuid } = parseAtomId(String(id));
      if (!source.session(host, key)) return null;
      const found = await source.atom(host, key, uuid);
      return found ? { host, key, atom: found.atom, rewound: found.rewound } : null;
    },
  }),
);
