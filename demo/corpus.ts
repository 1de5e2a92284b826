// Writes a large synthetic corpus of Claude Code transcripts for benchmarks. Lines come from a
// precomputed template pool; per line only uuids, times and ids are filled in, straight into a
// reused output buffer that is flushed to disk in chunks (two buffers, one being written).

import { type FileHandle, mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';
import { buildEpisodePool, type Episode, type EpisodePool, IdFamily, type LineTemplate, SlotKind, sessionFieldsJson } from './corpus-templates';
import { sessionFile } from './layout';
import { Rng, randomBase62, uuid } from './random';
import { CLAUDE_CODE_VERSION } from './records';

export interface CorpusOptions {
  totalBytes: number;
  /** session files to spread the bytes over; 1000 unless given */
  files?: number;
  seed?: number;
}

export interface CorpusStats {
  files: number;
  bytes: number;
  lines: number;
}

const PROJECTS = [
  'ledger',
  'harbour-api',
  'harbour-web',
  'tide-worker',
  'infra',
  'billing',
  'search',
  'mobile-app',
  'design-system',
  'auth-service',
  'notifications',
  'reports',
  'data-pipeline',
  'admin-console',
  'payments',
  'docs-site',
  'cli',
  'sdk-js',
  'sdk-python',
  'load-tests',
].map((name) => `/home/bench/src/${name}`);

const BRANCHES = ['main', 'main', 'develop', 'feat/bulk-import', 'fix/flaky-retry', 'chore/upgrade-deps'];

const CHUNK_BYTES = 8 << 20;
const DAY_MS = 86_400_000;
const HEX_CODES = Buffer.from('0123456789abcdef', 'latin1');
const DIGIT_0 = 0x30;
const QUOTE = 0x22;
const NEWLINE = 0x0a;
const MAX_ID_BYTES = 40;

export async function writeSyntheticCorpus(root: string, opts: CorpusOptions): Promise<CorpusStats> {
  const rng = new Rng(opts.seed ?? 1);
  const files = Math.max(1, Math.floor(opts.files ?? 1000));
  const pool = buildEpisodePool(rng);
  const out = new ChunkedOutput(Math.max(CHUNK_BYTES, 2 * largestEpisode(pool)));
  const smallestTurn = Math.min(...pool.prompts.map((e) => e.bytes)) + Math.min(...pool.replies.map((e) => e.bytes));
  const madeDirs = new Set<string>();
  const now = Date.now();
  let bytes = 0;
  let lines = 0;

  for (let i = 0; i < files; i++) {
    const cwd = PROJECTS[i % PROJECTS.length]!;
    const sessionId = uuid(rng);
    const path = sessionFile(root, cwd, sessionId);
    if (!madeDirs.has(dirname(path))) {
      await mkdir(dirname(path), { recursive: true });
      madeDirs.add(dirname(path));
    }
    const startMs = now - rng.int(0, 30 * DAY_MS);
    const session = new SessionLines(rng, { sessionId, cwd, gitBranch: rng.pick(BRANCHES), startMs });
    out.startFile(await open(path, 'w'));
    try {
      // Each file aims at an equal share of what is left, so earlier overshoot evens out.
      await writeSession(session, pool, out, {
        target: (opts.totalBytes - bytes) / (files - i),
        remaining: opts.totalBytes - bytes,
        smallestTurn,
      });
    } finally {
      await out.endFile();
    }
    bytes += session.bytes;
    lines += session.lines;
  }
  await out.finish();
  return { files, bytes, lines };
}

/** Turns of prompt, tool rounds and reply until the file has its share of bytes. */
async function writeSession(
  session: SessionLines,
  pool: EpisodePool,
  out: ChunkedOutput,
  budget: { target: number; remaining: number; smallestTurn: number },
): Promise<void> {
  const rng = session.rng;
  await session.write(pool.sessionStart, out);
  do {
    session.pause(30_000, 300_000); // the human reads the reply and types the next prompt
    await session.write(rng.pick(pool.prompts), out);
    const reply = rng.pick(pool.replies);
    for (let rounds = rng.int(1, 6); rounds > 0; rounds--) {
      const round = pickRound(pool, rng, budget.remaining - session.bytes);
      const huge = pool.hugeRounds.includes(round);
      if (!huge && session.bytes + round.bytes + reply.bytes > budget.target) break;
      await session.write(round, out);
    }
    await session.write(reply, out);
  } while (session.bytes + budget.smallestTurn < budget.target);
}

function pickRound(pool: EpisodePool, rng: Rng, remaining: number): Episode {
  const roll = rng.next();
  if (roll < 0.0001) {
    // ~1 MB lines are rare, and never where they would swamp what is left of the corpus.
    const huge = rng.pick(pool.hugeRounds);
    if (huge.bytes * 20 < remaining) return huge;
  }
  if (roll < 0.12) return rng.pick(pool.largeRounds);
  return rng.pick(pool.rounds);
}

function largestEpisode(pool: EpisodePool): number {
  const { sessionStart, prompts, rounds, largeRounds, hugeRounds, replies } = pool;
  const episodes = [sessionStart, ...prompts, ...rounds, ...largeRounds, ...hugeRounds, ...replies];
  return Math.max(...episodes.map((episode) => episode.bytes));
}

/** The per-file values templates leave open, and the counters that mint them. */
class SessionLines {
  bytes = 0;
  lines = 0;
  private chained = 0;
  private minted = 0;
  private clock: number;
  private readonly episodeIds: number[] = [];
  private readonly uuidHead: Buffer;
  private readonly idHeads: Buffer[];
  private readonly sessionFields: Buffer;
  private readonly cwd: Buffer;
  private readonly maxSlotBytes: number;
  /** the current line's timestamp; its first 17 bytes change once a minute */
  private readonly time = Buffer.from('YYYY-MM-DDTHH:MM:SS.mmmZ', 'latin1');
  private minuteStart = -Infinity;

  constructor(
    readonly rng: Rng,
    file: { sessionId: string; cwd: string; gitBranch: string; startMs: number },
  ) {
    this.clock = file.startMs;
    // Uuids and ids are a random per-file head plus a 12-digit hex counter: unique and cheap.
    this.uuidHead = Buffer.from(`"${uuid(rng).slice(0, 24)}`, 'latin1');
    this.idHeads = [];
    this.idHeads[IdFamily.message] = Buffer.from(`msg_01${randomBase62(rng, 10)}`, 'latin1');
    this.idHeads[IdFamily.request] = Buffer.from(`req_011C${randomBase62(rng, 8)}`, 'latin1');
    this.idHeads[IdFamily.toolUse] = Buffer.from(`toolu_01${randomBase62(rng, 10)}`, 'latin1');
    this.idHeads[IdFamily.uuid] = Buffer.from(`"${uuid(rng).slice(0, 24)}`, 'latin1');
    this.sessionFields = Buffer.from(sessionFieldsJson({ ...file, version: CLAUDE_CODE_VERSION }), 'utf8');
    this.cwd = Buffer.from(JSON.stringify(file.cwd).slice(1, -1), 'utf8');
    this.maxSlotBytes = Math.max(MAX_ID_BYTES, this.cwd.length, this.sessionFields.length);
  }

  pause(minMs: number, maxMs: number): void {
    this.clock += this.rng.int(minMs, maxMs);
  }

  async write(episode: Episode, out: ChunkedOutput): Promise<void> {
    for (let i = 0; i < episode.idFamilies.length; i++) this.episodeIds[i] = this.minted++;
    const base = this.chained;
    for (const line of episode.lines) {
      const bound = line.staticBytes + line.slots.length * this.maxSlotBytes + 1;
      if (out.room < bound) await out.flush();
      const start = out.pos;
      out.pos = this.fill(line, episode, base, out.buffer, start);
      this.bytes += out.pos - start;
      this.lines += 1;
    }
    this.chained += episode.chainedLines;
  }

  private fill(line: LineTemplate, episode: Episode, base: number, buf: Buffer, at: number): number {
    this.clock += 5 + Math.floor(this.rng.next() * 2_500);
    this.stampTime();
    let pos = put(buf, at, line.statics[0]!);
    for (let s = 0; s < line.slots.length; s++) {
      const slot = line.slots[s]!;
      switch (slot.kind) {
        case SlotKind.lineUuid:
          pos = put(buf, pos, this.uuidHead);
          pos = writeHex12(buf, pos, base + slot.arg);
          buf[pos++] = QUOTE;
          break;
        case SlotKind.time:
          pos = put(buf, pos, this.time);
          break;
        case SlotKind.sessionFields:
          pos = put(buf, pos, this.sessionFields);
          break;
        case SlotKind.cwd:
          pos = put(buf, pos, this.cwd);
          break;
        case SlotKind.id: {
          const family = episode.idFamilies[slot.arg]!;
          pos = put(buf, pos, this.idHeads[family]!);
          pos = writeHex12(buf, pos, this.episodeIds[slot.arg]!);
          if (family === IdFamily.uuid) buf[pos++] = QUOTE;
          break;
        }
      }
      pos = put(buf, pos, line.statics[s + 1]!);
    }
    buf[pos++] = NEWLINE;
    return pos;
  }

  /** Formats the clock as ISO 8601, calling Date only when the minute changes. */
  private stampTime(): void {
    let ms = this.clock - this.minuteStart;
    if (ms >= 60_000) {
      this.minuteStart = this.clock - (this.clock % 60_000);
      this.time.write(new Date(this.minuteStart).toISOString().slice(0, 17), 0, 'latin1');
      ms = this.clock - this.minuteStart;
    }
    const seconds = Math.floor(ms / 1000);
    const millis = ms % 1000;
    this.time[17] = DIGIT_0 + Math.floor(seconds / 10);
    this.time[18] = DIGIT_0 + (seconds % 10);
    this.time[20] = DIGIT_0 + Math.floor(millis / 100);
    this.time[21] = DIGIT_0 + (Math.floor(millis / 10) % 10);
    this.time[22] = DIGIT_0 + (millis % 10);
  }
}

/** TypedArray#set is a plain memmove; Buffer#copy validates its arguments first, which shows at a few bytes a time. */
function put(buf: Buffer, at: number, part: Buffer): number {
  buf.set(part, at);
  return at + part.length;
}

function writeHex12(buf: Buffer, at: number, value: number): number {
  for (let i = 11; i >= 0; i--) {
    buf[at + i] = HEX_CODES[value & 15]!;
    value >>>= 4;
  }
  return at + 12;
}

/**
 * Two buffers: one fills while the other is written, so disk and CPU overlap, also across
 * files: a file's last chunk and its close run while the next file fills.
 */
class ChunkedOutput {
  buffer: Buffer;
  pos = 0;
  private spare: Buffer;
  private handle: FileHandle | undefined;
  /** the spare buffer's write, then any close queued behind it */
  private pending: Promise<void> = Promise.resolve();

  constructor(size: number) {
    this.buffer = Buffer.allocUnsafe(size);
    this.spare = Buffer.allocUnsafe(size);
  }

  get room(): number {
    return this.buffer.length - this.pos;
  }

  startFile(handle: FileHandle): void {
    this.handle = handle;
  }

  async flush(): Promise<void> {
    await this.pending; // the spare buffer is free once its write is done
    if (this.pos === 0) return;
    this.queue(writeAll(this.handle!, this.buffer, this.pos));
    [this.buffer, this.spare] = [this.spare, this.buffer];
    this.pos = 0;
  }

  async endFile(): Promise<void> {
    await this.flush();
    const handle = this.handle!;
    this.queue(this.pending.finally(() => handle.close()));
  }

  async finish(): Promise<void> {
    await this.pending;
  }

  private queue(work: Promise<void>): void {
    work.catch(() => undefined); // awaited at the next flush; until then it must not count as unhandled
    this.pending = work;
  }
}

async function writeAll(handle: FileHandle, buf: Buffer, length: number): Promise<void> {
  for (let done = 0; done < length; ) {
    const { bytesWritten } = await handle.write(buf, done, length - done);
    done += bytesWritten;
  }
}
