import { useState } from 'react';
import { query } from '../lib/gql';
import { readFragment } from '../lib/graphql';
import { AtomRow } from './AtomRow';
import { ATOM, REWOUND_BRANCHES } from './queries';
import { buildRows } from './rows';
import type { ChatAtom, RewoundSummary } from './types';

interface Loaded {
  id: string;
  atoms: readonly ChatAtom[];
}

/**
 * Above a prompt that replaced what a rewind took away: says the turn was rewritten, and opens
 * the earlier version on request (its atoms are read only then).
 */
export function RewoundBranches({ sessionId, branches }: { sessionId: string; branches: RewoundSummary[] }) {
  const [open, setOpen] = useState<Loaded[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = async () => {
    try {
      const { session } = await query(REWOUND_BRANCHES, { id: sessionId });
      const wanted = new Set(branches.map((b) => b.id));
      const loaded = (session?.turns ?? []).flatMap((t) => t.rewoundBranches).filter((b) => wanted.has(b.id));
      setOpen(loaded.map((b): Loaded => ({ id: b.id, atoms: readFragment(ATOM, b.atoms) })));
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const count = branches.length === 1 ? 'an earlier version' : `${branches.length} earlier versions`;
  return (
    <div className="rewound">
      <div className="rewound-note">
        <span>↶ rewritten: {count} of this turn was rewound</span>
        {open === null ? (
          <button type="button" onClick={() => void show()}>
            show what was rewound
          </button>
        ) : (
          <button type="button" onClick={() => setOpen(null)}>
            hide
          </button>
        )}
      </div>
      {error && <div className="error">Could not load what was rewound: {error}</div>}
      {open?.map((branch) => (
        <div key={branch.id} className="rewound-branch" data-branch={branch.id}>
          {buildRows(branch.atoms).map((row) => (
            <AtomRow key={row.atom.id} row={row} />
          ))}
        </div>
      ))}
    </div>
  );
}
