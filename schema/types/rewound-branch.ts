import type { RewoundBranch } from '../../spoke/model/types';
import { builder } from '../builder';
import { childId } from '../ids';
import { AtomRef } from './atom';

interface RewoundBranchNode {
  host: string;
  key: string;
  branch: RewoundBranch;
}

export const RewoundBranchRef = builder.objectRef<RewoundBranchNode>('RewoundBranch').implement({
  description:
    'Atoms a rewind took off the active path: the user went back to an earlier point and typed a new prompt there. ' +
    'Kept as they were written; their atoms carry sequence 0 and rewound: true.',
  fields: (t) => ({
    id: t.id({ description: 'host:sessionKey:uuid of its first atom', resolve: (n) => childId(n.host, n.key, n.branch.atoms[0]?.uuid ?? n.branch.replacedBy) }),
    forkedFromUuid: t.string({
      nullable: true,
      description: 'the atom on the path the branch grew from; null when it grew from the start',
      resolve: (n) => n.branch.forkedFrom,
    }),
    replacedByUuid: t.string({ description: 'the prompt on the path that took its place', resolve: (n) => n.branch.replacedBy }),
    firstPrompt: t.string({
      nullable: true,
      description: 'the first line of the first prompt on the branch',
      resolve: (n) => n.branch.atoms.find((a) => a.promptLine !== null)?.promptLine ?? null,
    }),
    t: t.field({ type: 'DateTime', description: 'when its first atom was written', resolve: (n) => n.branch.atoms[0]?.t ?? 0 }),
    atomCount: t.int({ resolve: (n) => n.branch.atoms.length }),
    atoms: t.field({ type: [AtomRef], resolve: (n) => n.branch.atoms.map((atom) => ({ host: n.host, key: n.key, atom, rewound: true })) }),
  }),
});
