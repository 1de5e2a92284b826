import type { SessionTab } from '../tabs/sessions';
import { shownName } from '../tabs/shown-name';
import { type FeedGoal, sessionIdOf } from './types';

export interface SessionLabel {
  id: string;
  host: string;
  name: string;
}

/** The tab a goal belongs to: its current name from the sessions store, else what the goal carried. */
export function sessionLabelOf(goal: FeedGoal, tabs: Map<string, SessionTab>): SessionLabel {
  const id = goal.session?.id ?? sessionIdOf(goal.id);
  const tab = tabs.get(id);
  const [host, key] = id.split(':');
  return { id, host: tab?.host.name ?? goal.session?.host.name ?? host, name: (tab && shownName(tab)) ?? (goal.session && shownName(goal.session)) ?? key };
}
