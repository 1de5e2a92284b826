import type { Goal } from '../model/goal';
import { asciiJson, decodeText } from '../store/ascii-json';
import type { Blobs, StoredBlob } from '../store/blob-store';
import { array, literal, nullable, number, object, string } from '../store/json-check';

// A session's goals as the index cache keeps them: one JSON blob per session in the store beside
// the cache (most of what a restart would otherwise parse), read, parsed and checked only when
// something asks for that session's goals.

const Status = literal('WORKING', 'BLOCKED', 'COMPLETED');
const Goals = array(
  object({
    anchor: string,
    title: string,
    origin: literal('human', 'sdk', 'system', 'peer'),
    status: Status,
    rolledUpStatus: Status,
    block: nullable(object({ kind: literal('PERMISSION', 'QUESTION', 'PLAN_APPROVAL', 'ERROR'), text: string })),
    // no UNFINISHED: it depends on the clock, so it is applied when read and never stored
    outcome: nullable(literal('COMPLETED', 'INTERRUPTED')),
    openedAt: number,
    updatedAt: number,
    children: array(object({ key: string, kind: literal('TODO', 'TASK', 'SUBAGENT'), title: string, status: Status })),
  }),
);

export class StoredGoals {
  /** false once the stored blob was found not to be goals */
  private readable = true;

  private constructor(
    private parsed: Goal[] | null,
    /** its blob in the store, while it holds these goals */
    private saved: { store: Blobs; blob: StoredBlob } | null,
  ) {}

  /** Goals just judged, in memory until saved. */
  static of(goals: Goal[]): StoredGoals {
    return new StoredGoals(goals, null);
  }

  /** Goals in the store, read when first asked for. */
  static stored(store: Blobs, blob: StoredBlob): StoredGoals {
    return new StoredGoals(null, { store, blob });
  }

  /** The goals; null when the stored blob is not goals (the session must be read again to judge them). */
  get(): Goal[] | null {
    if (this.parsed === null && this.readable) {
      const goals = parseBlob(this.saved!);
      if (Goals(goals)) this.parsed = goals;
      else this.readable = false;
    }
    return this.parsed;
  }

  /** Where its blob is in the store (written there now if it is not): what the index cache keeps. */
  save(store: Blobs): StoredBlob {
    if (this.saved?.store !== store) this.saved = { store, blob: store.append(Buffer.from(asciiJson(this.parsed ?? []), 'latin1')) };
    return this.saved.blob;
  }

  /** Its blob, when the store holds it (a store being compacted moves it). */
  storedBlob(): StoredBlob | null {
    return this.saved?.blob ?? null;
  }
}

function parseBlob({ store, blob }: { store: Blobs; blob: StoredBlob }): unknown {
  try {
    return JSON.parse(decodeText(store.read(blob)));
  } catch {
    return null;
  }
}
