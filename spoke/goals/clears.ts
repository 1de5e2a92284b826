import { randomUUID } from 'node:crypto';
import { renameSync } from 'node:fs';
import * as z from 'zod';
import { AppendLog } from '../store/append-log';
import { readFileIfPresent } from '../store/atomic-file';

// Goals the user cleared from the feed, in batches that can be undone, kept in the state dir as
// an append-only log (a clear or an undo adds one line; the log is compacted when the kernel
// starts). Clearing is idempotent by key: the same request sent twice makes one batch.

const Clear = z.object({
  kind: z.literal('clear'),
  batchId: z.string(),
  /** goal keys: `sessionKey/anchor` */
  goals: z.array(z.string()),
  idempotencyKey: z.string(),
  at: z.number(),
  undone: z.boolean(),
});
const Undo = z.object({ kind: z.literal('undo'), batchId: z.string() });
const Entry = z.discriminatedUnion('kind', [Clear, Undo]);
type Clear = z.infer<typeof Clear>;
type Entry = z.infer<typeof Entry>;

/** 0.2 kept the batches in one JSON file, rewritten whole on every clear. */
const LegacyFile = z.object({ batches: z.record(z.string(), Clear.omit({ kind: true, batchId: true })) });

export class GoalClears {
  private readonly batches = new Map<string, Clear>();
  private readonly byKey = new Map<string, string>();
  private cleared = new Set<string>();

  private constructor(private readonly log: AppendLog<Entry>) {}

  static async open(path: string, log: (message: string) => void): Promise<GoalClears> {
    const file = new AppendLog<Entry>(path);
    const clears = new GoalClears(file);
    const { records, clean } = file.read(Entry, log);
    const legacy = records.length === 0 && clean ? readLegacy(path, log) : [];
    for (const entry of [...legacy, ...records]) clears.apply(entry);
    // one line a batch, undos folded in, unreadable lines gone
    if (legacy.length > 0 || !clean || records.some((e) => e.kind === 'undo')) file.compact([...clears.batches.values()]);
    if (legacy.length > 0) renameSync(legacyPath(path), `${legacyPath(path)}.imported`);
    clears.recount();
    return clears;
  }

  has(goalKey: string): boolean {
    return this.cleared.has(goalKey);
  }

  /** Clears goals; returns the batch id (the same one again for a repeated idempotency key). */
  async clear(goalKeys: string[], idempotencyKey: string): Promise<{ batchId: string; goals: string[] }> {
    const seen = this.batches.get(this.byKey.get(idempotencyKey) ?? '');
    if (seen) return { batchId: seen.batchId, goals: seen.goals };
    const batch: Clear = { kind: 'clear', batchId: randomUUID(), goals: [...new Set(goalKeys)], idempotencyKey, at: Date.now(), undone: false };
    this.log.append(batch);
    this.apply(batch);
    this.recount();
    return { batchId: batch.batchId, goals: batch.goals };
  }

  /** Puts a batch's goals back in the feed; null when there is no such batch. */
  async undo(batchId: string): Promise<string[] | null> {
    const batch = this.batches.get(batchId);
    if (!batch) return null;
    if (!batch.undone) {
      const undo: Entry = { kind: 'undo', batchId };
      this.log.append(undo);
      this.apply(undo);
      this.recount();
    }
    return batch.goals;
  }

  private apply(entry: Entry): void {
    if (entry.kind === 'clear') {
      this.batches.set(entry.batchId, entry);
      this.byKey.set(entry.idempotencyKey, entry.batchId);
    } else {
      const batch = this.batches.get(entry.batchId);
      if (batch) batch.undone = true;
    }
  }

  private recount(): void {
    this.cleared = new Set([...this.batches.values()].flatMap((b) => (b.undone ? [] : b.goals)));
  }
}

const legacyPath = (path: string): string => path.replace(/\.jsonl$/, '.json');

/** The batches of a 0.2 state dir, to carry over once; a file that cannot be read is left where it is. */
function readLegacy(path: string, log: (message: string) => void): Clear[] {
  const text = readFileIfPresent(legacyPath(path));
  if (text === null) return [];
  let parsed: ReturnType<typeof LegacyFile.safeParse> | null = null;
  try {
    parsed = LegacyFile.safeParse(JSON.parse(text));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    log(`${legacyPath(path)} could not be read, so its cleared goals are not carried over; it is left in place`);
    return [];
  }
  return Object.entries(parsed.data.batches).map(([batchId, b]) => ({ kind: 'clear', batchId, ...b }));
}
