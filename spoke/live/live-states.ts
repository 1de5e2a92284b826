import { type FSWatcher, mkdirSync, readdirSync, watch } from 'node:fs';
import { basename, join } from 'node:path';
import type { LiveState } from '../model/live';
import { FileTail } from '../transcripts/tail';
import { type HookLine, parseHookLine, stateAfter, UNKNOWN_LIVE } from './hook-state';

// Follows `<state>/states/<session_id>.jsonl`, the lines `loom hook` appends, and keeps each
// session's current live state. The files are small and only ever appended to.

const RECHECK_MS = 80;

export class LiveStates {
  private readonly states = new Map<string, LiveState>();
  /** Claude Code session id → the Loom session it was launched under (`loom run`) */
  private readonly identities = new Map<string, string>();
  /** Claude Code session id → every time the hooks said it went idle */
  private readonly idle = new Map<string, number[]>();
  private readonly tails = new Map<string, FileTail>();
  private readonly reading = new Map<string, Promise<void>>();
  private watcher: FSWatcher | null = null;
  private timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly dir: string,
    private readonly changed: (sessionId: string) => void,
    private readonly log: (message: string) => void,
    /** a Claude Code session was found to belong to a `loom run` session */
    private readonly identified: (sessionId: string) => void = () => {},
    /** every hook line as it arrives (requests held open learn from them that the terminal answered) */
    private readonly observed: (line: HookLine) => void = () => {},
  ) {}

  get(sessionId: string): LiveState {
    return this.states.get(sessionId) ?? UNKNOWN_LIVE;
  }

  /** When the hooks said the session went idle, oldest first. */
  idleTimes(sessionId: string): number[] {
    return this.idle.get(sessionId) ?? [];
  }

  /** The Loom session a Claude Code session was launched under, if any. */
  identityOf(sessionId: string): string | null {
    return this.identities.get(sessionId) ?? null;
  }

  async start(): Promise<void> {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    this.watcher = watch(this.dir, { persistent: false }, (_event, name) => {
      if (!name?.endsWith('.jsonl')) return;
      const path = join(this.dir, name);
      void this.read(path);
      clearTimeout(this.timers.get(path));
      this.timers.set(
        path,
        setTimeout(() => void this.read(path), RECHECK_MS),
      );
    });
    this.watcher.on('error', (err) => this.log(`watching ${this.dir}: ${err.message}`));
    for (const name of readdirSync(this.dir)) if (name.endsWith('.jsonl')) await this.read(join(this.dir, name));
  }

  stop(): void {
    this.watcher?.close();
    for (const timer of this.timers.values()) clearTimeout(timer);
  }

  /** One reader per file; a read requested meanwhile runs after it. */
  private read(path: string): Promise<void> {
    const previous = this.reading.get(path) ?? Promise.resolve();
    const next = previous.then(() => this.readOnce(path));
    this.reading.set(path, next);
    return next;
  }

  private async readOnce(path: string): Promise<void> {
    const sessionId = basename(path, '.jsonl');
    let tail = this.tails.get(path);
    if (!tail) {
      tail = new FileTail(path);
      this.tails.set(path, tail);
    }
    let latest: LiveState | null = null;
    try {
      await tail.read({
        restart: () => {
          this.states.delete(sessionId);
          this.idle.delete(sessionId);
        },
        line: (line) => {
          const parsed = parseHookLine(line.text);
          if (!parsed) return this.log(`${path}:${line.number}: not a hook line; skipped`);
          const identity = parsed.loom_session;
          if (identity && this.identities.get(sessionId) !== identity) {
            this.identities.set(sessionId, identity);
            this.identified(sessionId);
          }
          this.observed(parsed);
          const next = stateAfter(parsed);
          if (next?.state === 'IDLE' && next.since !== null) {
            const times = this.idle.get(sessionId) ?? [];
            times.push(next.since);
            this.idle.set(sessionId, times);
          }
          latest = next ?? latest;
        },
      });
    } catch (err) {
      this.log(`error reading ${path}: ${(err as Error).message}`);
    }
    if (latest) {
      this.states.set(sessionId, latest);
      this.changed(sessionId);
    }
  }
}
