import { GraphQLError } from 'graphql';

// What one query or mutation may make the kernel do, counted while it runs at the sizes it
// meets (a list without a page argument counts at its real length), so no shape of query can
// hold more than this in memory at once. Subscriptions have none: a stream's frames are bounded
// by the stream itself (spoke/session-stream.ts).

export interface BudgetLimits {
  /** values in the answer: every field resolved, and every item of every list */
  values: number;
  /** bytes of transcript read to answer it (atom content) */
  bytes: number;
}

export class OperationBudget {
  private values = 0;
  private bytes = 0;

  constructor(
    private readonly limits: BudgetLimits,
    /** aborts when the caller is gone: its socket or request closed */
    private readonly signal: AbortSignal | null,
  ) {}

  /** Counts values of the answer; throws once the operation is past its budget or its caller left. */
  spend(values: number): void {
    this.values += values;
    this.check();
  }

  /** Counts transcript bytes read for the answer. */
  read(bytes: number): void {
    this.bytes += bytes;
    this.check();
  }

  private check(): void {
    // graphql-js cannot stop an execution: every resolver after this throws at once instead
    if (this.signal?.aborted) throw new GraphQLError('stopped: the connection that asked for it closed', { extensions: { code: 'UNAVAILABLE' } });
    if (this.values > this.limits.values) {
      throw new GraphQLError(
        `the answer would hold more than ${this.limits.values.toLocaleString('en')} values: ask for less (a smaller "first" or "limit", fewer nested lists)`,
        {
          extensions: { code: 'BAD_USER_INPUT' },
        },
      );
    }
    if (this.bytes > this.limits.bytes) {
      throw new GraphQLError(
        `the answer would read more than ${Math.round(this.limits.bytes / 2 ** 20)} MiB of transcripts: ask for fewer atoms' content at once`,
        {
          extensions: { code: 'BAD_USER_INPUT' },
        },
      );
    }
  }
}
