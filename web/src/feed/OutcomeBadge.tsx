import type { GoalOutcome } from './types';

/** How a goal ended, when that is worth a word: the user stopped it, or it was left open. */
export function OutcomeBadge({ outcome }: { outcome: GoalOutcome | null }) {
  if (outcome === 'INTERRUPTED') return <span className="goal-interrupted">interrupted</span>;
  if (outcome === 'UNFINISHED')
    return (
      <span className="goal-unfinished" title="left open: nothing has been written to it lately">
        unfinished
      </span>
    );
  return null;
}
