import { randomUUID } from 'node:crypto';
import type { Low } from 'lowdb';
import { z } from 'zod';
import { openStore } from '../store/json-store';

// Goals the user cleared from the feed, in batches that can be undone. Kept in the state dir.
// Clearing is idempotent by key: the same request sent twice makes one batch.

const Batch = z.object({
  /** goal keys: `sessionKey/anchor` */
  goals: z.array(z.string()),
  idempotencyKey: z.string(),
  at: z.number(),
  undone: z.boolean(),
});
const Clears = z.object({ batches: z.record(z.string(), Batch) });
type Clears = z.infer<typeof Clears>;

export class GoalClears {
  private cleared = new Set<string>();

  private constructor(private readonly db: Low<Clears>) {
    this.recount();
  }

  static async open(path: string, log: (message: string) => void): Promise<GoalClears> {
    return new GoalClears(await openStore(path, Clears, { batches: {} }, log));
  }

  has(goalKey: string): boolean {
    return this.cleared.has(goalKey);
  }

  /** Clears goals; returns the batch id (the same one again for a repeated idempotency key). */
  async clear(goalKeys: string[], idempotencyKey: string): Promise<{ batchId: string; goals: string[] }> {
    const batches = this.db.data.batches;
    const seen = Object.entries(batches).find(([, b]) => b.idempotencyKey === idempotencyKey);
    if (seen) return { batchId: seen[0], goals: seen[1].goals };
    const batchId = randomUUID();
    batches[batchId] = { goals: [...new Set(goalKeys)], idempotencyKey, at: Date.now(), undone: false };
    await this.db.write();
    this.recount();
    return { batchId, goals: batches[batchId].goals };
  }

  /** Puts a batch's goals back in the feed; null when there is no such batch. */
  async undo(batchId: string): Promise<string[] | null> {
    const batch = this.db.data.batches[batchId];
    if (!batch) return null;
    if (!batch.undone) {
      batch.undone = true;
      await this.db.write();
      this.recount();
    }
    return batch.goals;
  }

  private recount(): void {
    this.cleared = new Set(Object.values(this.db.data.batches).flatMap((b) => (b.undone ? [] : b.goals)));
  }
}
