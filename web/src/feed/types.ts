import type { Enum, ResultOf } from '../lib/graphql';
import type { GOAL_CARD, GOAL_DETAIL } from './queries';

// The goal shapes the feed reads, derived from its documents (queries.ts) and the schema's enums.

export type GoalStatus = Enum<'GoalStatus'>;
export type BlockKind = Enum<'BlockKind'>;
export type ChildKind = Enum<'ChildGoalKind'>;
/** UNFINISHED: left open with nobody at work on it (the kernel decides, by its clock) */
export type GoalOutcome = Enum<'GoalOutcome'>;

/** completed goals the page holds, the most recently updated: a long history holds tens of thousands */
export const COMPLETED_READ = 500;

/** A card in the feed. */
export type FeedGoal = ResultOf<typeof GOAL_CARD>;
/** A goal in full (the modal); its anchor is the prompt that opened it, whose id is its turn's. */
export type GoalDetail = NonNullable<ResultOf<typeof GOAL_DETAIL>['goal']>;

/** Goal ids are `host:sessionKey/promptUuid`; the part before the slash is the session's id. */
export function sessionIdOf(goalId: string): string {
  return goalId.slice(0, goalId.indexOf('/'));
}
