import { useState } from 'react';
import { type ClearBatch, clearGoals, undoClear } from './feed-store';

interface Props {
  /** the completed column's goal ids */
  completed: string[];
  lastClear: ClearBatch | null;
}

/** "Clear completed", then "Undo" for the batch it made. */
export function ClearBar({ completed, lastClear }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = (action: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    action()
      .catch((err: Error) => setError(err.message))
      .finally(() => setBusy(false));
  };
  return (
    <div className="clear-bar">
      {lastClear && (
        <button type="button" disabled={busy} onClick={() => run(() => undoClear(lastClear))} title={`Put the ${lastClear.ids.length} cleared goals back`}>
          Undo
        </button>
      )}
      <button type="button" disabled={busy || completed.length === 0} onClick={() => run(() => clearGoals(completed))}>
        Clear completed
      </button>
      {error && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
