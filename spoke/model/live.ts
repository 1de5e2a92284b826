// What Claude Code's hooks say about a session, as the model carries it. Reading the hook log
// and deciding what each event means is spoke/live's business (hook-state.ts, live-spans.ts).

export type LiveStateKind = 'WORKING' | 'PERMISSION' | 'COMPACTING' | 'IDLE' | 'CLOSED' | 'UNKNOWN';

export interface LiveState {
  state: LiveStateKind;
  /** epoch ms of the event that set the state; null when no hook was ever seen */
  since: number | null;
  /** the permission request, the compaction trigger, why the session ended… */
  detail: string | null;
}

export type StripeKind = 'PERMISSION' | 'COMPACTING';

/** A span of time a session spent waiting for a permission or compacting: a stripe on the timeline. */
export interface LiveSpan {
  kind: StripeKind;
  t: number;
  /** null while the session is still in that state */
  end: number | null;
}
