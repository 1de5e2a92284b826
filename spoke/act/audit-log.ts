import * as z from 'zod';
import { AppendLog } from '../store/append-log';

// Every action taken through this kernel, appended to `<state>/actions.jsonl`: who (this
// machine, or a hub by its name), what, on which session and request, and how it ended. Read
// back through the API (`actions`); never rewritten except to drop a line that cannot be read.

const ActionRecord = z.object({
  seq: z.number().int(),
  at: z.number(),
  /** `local` (this machine's token), `hub:<name>` (a hub acting through its link) */
  actor: z.string(),
  /** the mutation: allowTool, denyTool, answerQuestion, approvePlan, rejectPlan, setAway */
  action: z.string(),
  /** the host the action was for: this one, or a linked host a hub sent it to */
  host: z.string(),
  sessionId: z.string().nullable(),
  requestId: z.string().nullable(),
  /** what was decided, in a few words */
  summary: z.string(),
  /** OK, or the error code it ended with */
  result: z.string(),
  message: z.string().nullable(),
});
export type ActionRecord = z.infer<typeof ActionRecord>;

export class AuditLog {
  private readonly file: AppendLog<ActionRecord>;
  private readonly records: ActionRecord[];

  constructor(path: string, log: (message: string) => void) {
    this.file = new AppendLog<ActionRecord>(path);
    const { records, clean } = this.file.read(ActionRecord, log);
    if (!clean) this.file.compact(records);
    this.records = records;
  }

  append(entry: Omit<ActionRecord, 'seq'>): ActionRecord {
    const record = { seq: (this.records.at(-1)?.seq ?? 0) + 1, ...entry };
    this.file.append(record);
    this.records.push(record);
    return record;
  }

  /** Newest first, at most `first`, only those after `since` (epoch ms) when given. */
  list(since: number | null, first: number): ActionRecord[] {
    const out: ActionRecord[] = [];
    for (let i = this.records.length - 1; i >= 0 && out.length < first; i--) {
      if (since !== null && this.records[i].at <= since) break;
      out.push(this.records[i]);
    }
    return out;
  }
}
