import { duration } from '../lib/duration';
import type { ChatAtom } from './types';

/** A compaction boundary: the model's memory before this line is a summary. */
export function CompactionDivider({ atom }: { atom: ChatAtom }) {
  return (
    <div className="divider divider-compaction" title={new Date(atom.t).toLocaleString()}>
      <span>conversation compacted</span>
    </div>
  );
}

/** Loom's mark where a new chain starts in the same file: /clear, or plan mode's "clear context and implement". */
export function NewChainDivider({ atom }: { atom: ChatAtom }) {
  return (
    <div className="divider divider-new-chain" title={new Date(atom.t).toLocaleString()}>
      <span>context cleared · a new conversation starts here</span>
    </div>
  );
}

/** An idle span from the hooks: the session waited for its person from t to end. */
export function IdleDivider({ atom }: { atom: ChatAtom }) {
  const span = atom.end ? duration(Date.parse(atom.end) - Date.parse(atom.t)) : 'still';
  return (
    <div className="divider divider-idle" title={`${new Date(atom.t).toLocaleString()}${atom.end ? ` – ${new Date(atom.end).toLocaleString()}` : ''}`}>
      <span>idle {span}</span>
    </div>
  );
}
