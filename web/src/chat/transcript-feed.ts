import { client } from '../lib/client';
import { connection } from '../lib/connection';
import { query } from '../lib/gql';
import { type ResultOf, readFragment } from '../lib/graphql';
import { createStore, type Store } from '../lib/store';
import { mergeAtoms } from './merge-atoms';
import { ATOM, SESSION_STREAM, TRANSCRIPT_PAGE } from './queries';
import type { ChatAtom, Fence } from './types';

type StreamFrame = ResultOf<typeof SESSION_STREAM>['sessionStream'];

// One session's atoms as the chat holds them: the newest page first, then the live stream from
// that page's fence, and older pages on demand. Everything is keyed by sequence, so frames
// replayed after a reconnect never add a row twice.

const NEWEST_PAGE = 150;
const OLDER_PAGE = 200;
/** pages fetched while jumping to a turn far back: fewer round trips */
const JUMP_PAGE = 500;

export interface TranscriptState {
  atoms: readonly ChatAtom[];
  /** the first page arrived (or failed) */
  ready: boolean;
  hasOlder: boolean;
  loadingOlder: boolean;
  error: string | null;
  /** bumps when what was held was dropped (a reset frame): the view starts over at the bottom */
  resets: number;
}

const EMPTY: TranscriptState = { atoms: [], ready: false, hasOlder: false, loadingOlder: false, error: null, resets: 0 };

const messageOf = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/^\[\w+\] /, '');

export class TranscriptFeed {
  readonly state: Store<TranscriptState> = createStore(EMPTY);
  private fence: Fence | null = null;
  /** bumps on every start and stop: answers that belong to an earlier run are dropped */
  private run = 0;
  private stopStream: (() => void) | null = null;
  /** the kernel ended the stream (STOPPED: the session closed with everything sent) */
  private ended = false;
  private stopReconnectWatch: (() => void) | null = null;
  private olderPage: Promise<void> | null = null;

  constructor(private readonly sessionId: string) {}

  start(): void {
    const run = ++this.run;
    void this.loadNewest(run);
    // after a reconnect, resume from the newest fence rather than the one we first subscribed with
    this.stopReconnectWatch = connection.subscribe(() => {
      if (connection.get() === 'stale' && this.fence && run === this.run) this.follow(run);
    });
  }

  stop(): void {
    this.run++;
    this.stopStream?.();
    this.stopStream = null;
    this.stopReconnectWatch?.();
    this.stopReconnectWatch = null;
  }

  /**
   * The session may be alive again (resumed, or its terminal came back): a stream the kernel
   * ended when it closed is followed again from where it stopped.
   */
  wake(): void {
    if (this.ended && this.fence) this.follow(this.run);
  }

  /** Loads the page before the oldest atom held; while one is on its way, waits for that one. */
  loadOlder(limit = OLDER_PAGE): Promise<void> {
    this.olderPage ??= this.fetchOlder(limit).finally(() => {
      this.olderPage = null;
    });
    return this.olderPage;
  }

  private async fetchOlder(limit: number): Promise<void> {
    const held = this.state.get();
    if (!held.hasOlder || held.atoms.length === 0) return;
    const run = this.run;
    this.patch({ loadingOlder: true });
    try {
      const { transcript: page } = await query(TRANSCRIPT_PAGE, {
        id: this.sessionId,
        limit,
        before: held.atoms[0].sequence,
      });
      if (run !== this.run) return;
      if (this.fence && (page.epoch !== this.fence.epoch || page.generation !== this.fence.generation)) {
        // the path was rewritten since we started: our atoms and this page don't fit together
        this.restart();
        return;
      }
      const now = this.state.get();
      this.patch({ atoms: mergeAtoms(now.atoms, readFragment(ATOM, page.entries)), hasOlder: page.hasOlder, loadingOlder: false });
    } catch (err) {
      if (run === this.run) this.patch({ loadingOlder: false, error: messageOf(err) });
    }
  }

  /** Loads older pages until `sequence` is held (or the start of the session is). */
  async loadUntil(sequence: number): Promise<void> {
    for (;;) {
      const { atoms, hasOlder, error } = this.state.get();
      if (error || !hasOlder || atoms.length === 0 || atoms[0].sequence <= sequence) return;
      const before = atoms[0].sequence;
      await this.loadOlder(JUMP_PAGE);
      if (this.state.get().atoms[0]?.sequence === before) return; // nothing came: don't spin
    }
  }

  private restart(): void {
    this.stop();
    this.fence = null;
    this.state.set({ ...EMPTY, resets: this.state.get().resets + 1 });
    this.start();
  }

  private async loadNewest(run: number): Promise<void> {
    try {
      const { transcript: page } = await query(TRANSCRIPT_PAGE, { id: this.sessionId, limit: NEWEST_PAGE });
      if (run !== this.run) return;
      this.fence = { cursor: page.maxSequence, epoch: page.epoch, generation: page.generation };
      this.patch({ atoms: readFragment(ATOM, page.entries), hasOlder: page.hasOlder, loadingOlder: false, ready: true, error: null });
      this.follow(run);
    } catch (err) {
      if (run === this.run) this.patch({ ready: true, error: messageOf(err) });
    }
  }

  /** (Re)subscribes to the stream from the current fence. */
  private follow(run: number): void {
    this.stopStream?.();
    this.ended = false;
    const variables = { id: this.sessionId, ...this.fence };
    this.stopStream = client.subscription(SESSION_STREAM, variables).subscribe((result) => {
      if (run !== this.run) return;
      if (result.error) {
        this.patch({ error: messageOf(result.error) });
        return;
      }
      const frame = result.data?.sessionStream;
      if (!frame) return;
      connection.fresh();
      this.apply(frame);
    }).unsubscribe;
  }

  private apply(frame: StreamFrame): void {
    this.fence = { cursor: frame.cursor, epoch: frame.epoch, generation: frame.generation };
    if (frame.kind === 'STOPPED') this.ended = true;
    const held = this.state.get();
    if (frame.reset) {
      // what we held is void: this frame's atoms (the newest) are the new start
      const atoms = [...readFragment(ATOM, frame.atoms)].sort((a, b) => a.sequence - b.sequence);
      this.patch({ atoms, hasOlder: (atoms[0]?.sequence ?? 1) > 1, resets: held.resets + 1, error: null });
    } else {
      const atoms = mergeAtoms(held.atoms, readFragment(ATOM, frame.atoms));
      if (atoms !== held.atoms || held.error) this.patch({ atoms, error: null });
    }
  }

  private patch(next: Partial<TranscriptState>): void {
    this.state.set({ ...this.state.get(), ...next });
  }
}
