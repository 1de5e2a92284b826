import type { LiveKind } from './sessions';

// The four things a person asks of a tab at a glance. UNKNOWN (no hooks seen) says so
// rather than guessing from silence.

const CHIPS: Record<LiveKind, { label: string; tone: string; title: string }> = {
  WORKING: { label: 'working', tone: 'working', title: 'Claude is working' },
  COMPACTING: { label: 'working', tone: 'working', title: 'Claude is compacting the conversation' },
  PERMISSION: { label: 'needs you', tone: 'needs-you', title: 'Claude is waiting for a permission' },
  IDLE: { label: 'idle', tone: 'idle', title: 'Claude finished and waits for the next prompt' },
  CLOSED: { label: 'closed', tone: 'closed', title: 'The session ended' },
  UNKNOWN: { label: '?', tone: 'unknown', title: 'No hook events seen for this session (run `loom hooks install`)' },
};

export function LiveChip({ state }: { state: LiveKind }) {
  const chip = CHIPS[state];
  return (
    <span className={`chip chip-${chip.tone}`} title={chip.title} data-live={state}>
      {chip.label}
    </span>
  );
}

/** The transcript is gone from disk (Claude Code's cleanup); Loom shows its own copy. */
export function ArchivedChip({ archived }: { archived: boolean }) {
  if (!archived) return null;
  return (
    <span className="chip chip-archived" title="Claude Code deleted this transcript; Loom shows its own copy of it" data-archived="">
      archived
    </span>
  );
}
