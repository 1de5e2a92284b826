import type { Segment, Turn } from '../../spoke/model/types';
import { builder } from '../builder';
import { childId } from '../ids';
import { AtomRef, atomNode } from './atom';
import { RewoundBranchRef } from './rewound-branch';

export interface TurnNode {
  host: string;
  key: string;
  turn: Turn;
}

interface SegmentNode {
  host: string;
  key: string;
  segment: Segment;
}

const SegmentRef = builder.objectRef<SegmentNode>('Segment').implement({
  description: 'A turn split at its inputs: from one prompt to the next. The timeline draws one bar per segment.',
  fields: (t) => ({
    index: t.int({ resolve: (s) => s.segment.index }),
    input: t.field({ type: AtomRef, nullable: true, resolve: (s) => (s.segment.input ? atomNode(s.host, s.key)(s.segment.input) : null) }),
    t: t.field({ type: 'DateTime', resolve: (s) => s.segment.t }),
    end: t.field({ type: 'DateTime', resolve: (s) => s.segment.end }),
    atomCount: t.int({ resolve: (s) => s.segment.atomCount }),
  }),
});

export const TurnRef = builder.objectRef<TurnNode>('Turn').implement({
  description: 'From a trigger (a prompt) to the end of the model turn it started.',
  fields: (t) => ({
    id: t.id({ resolve: (n) => childId(n.host, n.key, n.turn.id) }),
    index: t.int({ resolve: (n) => n.turn.index }),
    trigger: t.field({ type: AtomRef, nullable: true, resolve: (n) => (n.turn.trigger ? atomNode(n.host, n.key)(n.turn.trigger) : null) }),
    firstSequence: t.int({
      description: "sequence of the turn's first atom: where a reader jumps to when the turn has no trigger",
      resolve: (n) => n.turn.atoms[0]?.sequence ?? n.turn.trigger?.sequence ?? 0,
    }),
    t: t.field({ type: 'DateTime', resolve: (n) => n.turn.t }),
    end: t.field({ type: 'DateTime', nullable: true, resolve: (n) => (n.turn.ended ? n.turn.end : null) }),
    lastActivity: t.field({ type: 'DateTime', resolve: (n) => n.turn.end }),
    ended: t.boolean({ resolve: (n) => n.turn.ended }),
    interrupted: t.boolean({ resolve: (n) => n.turn.interrupted }),
    atomCount: t.int({ resolve: (n) => n.turn.atoms.length }),
    atoms: t.field({ type: [AtomRef], resolve: (n) => n.turn.atoms.map(atomNode(n.host, n.key)) }),
    rewoundBranches: t.field({
      type: [RewoundBranchRef],
      description: 'what rewinds inside this turn took off the path (the user went back and typed a new prompt), oldest first',
      resolve: (n) => n.turn.rewoundBranches.map((branch) => ({ host: n.host, key: n.key, branch })),
    }),
    segments: t.field({ type: [SegmentRef], resolve: (n) => n.turn.segments.map((segment) => ({ host: n.host, key: n.key, segment })) }),
  }),
});
