import { z } from 'zod';
import type { Goal } from '../model/goal';

// A sleeping session's goals as the index cache keeps them: one JSON string (a single string
// costs a restart far less than thousands of small objects), parsed and validated only when
// something asks.

const Status = z.enum(['WORKING', 'BLOCKED', 'COMPLETED']);
const GoalSchema = z.object({
  anchor: z.string(),
  title: z.string(),
  origin: z.enum(['human', 'sdk', 'system', 'peer']),
  status: Status,
  rolledUpStatus: Status,
  block: z.object({ kind: z.enum(['PERMISSION', 'QUESTION', 'PLAN_APPROVAL', 'ERROR']), text: z.string() }).nullable(),
  // no UNFINISHED: it depends on the clock, so it is applied when read and never stored
  outcome: z.enum(['COMPLETED', 'INTERRUPTED']).nullable(),
  openedAt: z.number(),
  updatedAt: z.number(),
  children: z.array(z.object({ key: z.string(), kind: z.enum(['TODO', 'TASK', 'SUBAGENT']), title: z.string(), status: Status })),
});
const Goals = z.array(GoalSchema);

export class StoredGoals {
  private constructor(
    private parsed: Goal[] | null,
    private text: string | null,
  ) {}

  static of(goals: Goal[]): StoredGoals {
    return new StoredGoals(goals, null);
  }

  static fromJson(text: string): StoredGoals {
    return new StoredGoals(null, text);
  }

  /** The goals; a stored string that is not valid goals counts as none (the session re-judges when it wakes). */
  get(): Goal[] {
    if (this.parsed === null) {
      let raw: unknown = null;
      try {
        raw = JSON.parse(this.text ?? '[]');
      } catch {
        raw = null;
      }
      const result = Goals.safeParse(raw);
      this.parsed = result.success ? result.data : [];
      this.text = null;
    }
    return this.parsed;
  }

  json(): string {
    return this.text ?? JSON.stringify(this.parsed ?? []);
  }
}
