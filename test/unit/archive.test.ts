import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type ArchiveOptions, CHUNK_BYTES, TranscriptArchive } from '../../spoke/archive/transcript-archive';

const FIXTURES = join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures', 'claude-projects');
/** 3.2 MB: thirteen chunks */
const BIG = join(FIXTURES, '-home-USER-projects-spotter-worktrees', '4d5611e5-241a-462a-8d15-5122611a9569.jsonl');
/** 1.2 MB, much of it base64 images that hardly compress */
const MEDIUM = join(FIXTURES, '-Users-dain-workspace-claude-code-log-sample', '0d3a8e6f-290f-4105-a327-a2496e5e2a83.jsonl');
const SMALL = join(FIXTURES, '-Users-dain-workspace-danieldemmel-me-next', 'f852ad25-1024-47da-964e-5eaae5bd6e6a.jsonl');
const TINY = join(FIXTURES, '-experiments-ideas', '03eb5929-52b3-4b13-ada3-b93ae35806b8.jsonl');

let root: string;
let dir: string;
let logged: string[];
let clock: number;
const archives: TranscriptArchive[] = [];

const open = (options: Partial<ArchiveOptions> = {}): TranscriptArchive => {
  const archive = TranscriptArchive.open({ dir, capBytes: null, log: (m) => logged.push(m), now: () => clock, ...options });
  archives.push(archive);
  return archive;
};
const sha = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const filesEnding = (suffix: string): string[] => readdirSync(dir).filter((f) => f.endsWith(suffix));
const onlyFile = (suffix: string): string => {
  const files = filesEnding(suffix);
  expect(files).toHaveLength(1);
  return join(dir, files[0]);
};

/** The byte offset after each line of `bytes`. */
function lineEnds(bytes: Buffer): number[] {
  const ends: number[] = [];
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) ends.push(at + 1);
  return ends;
}

/** A live transcript that grows like Claude Code's: the fixture's bytes up to each end in turn. */
function liveCopyOf(fixture: string, name = 'live.jsonl'): { path: string; bytes: Buffer; growTo(end: number): void } {
  const bytes = readFileSync(fixture);
  const path = join(root, 'projects', name);
  mkdirSync(join(root, 'projects'), { recursive: true });
  writeFileSync(path, '');
  let written = 0;
  return {
    path,
    bytes,
    growTo(end: number) {
      appendFileSync(path, bytes.subarray(written, end));
      written = end;
    },
  };
}

/** Copies the whole fixture, as a live file named after `name`, and returns that file. */
async function copyWhole(archive: TranscriptArchive, name: string, fixture: string): Promise<{ path: string; bytes: Buffer }> {
  const live = liveCopyOf(fixture, `${sha(Buffer.from(name)).slice(0, 8)}.jsonl`);
  live.growTo(live.bytes.length);
  await archive.copy(name, live.path, live.bytes.length);
  return live;
}

async function readAll(archive: TranscriptArchive, name: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for await (const piece of archive.pieces(name)) pieces.push(piece);
  return Buffer.concat(pieces);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'loom-archive-'));
  dir = join(root, 'state', 'archive');
  logged = [];
  clock = Date.parse('2026-05-01T10:00:00Z');
});
afterEach(async () => {
  await Promise.all(archives.splice(0).map((a) => a.close()));
  rmSync(root, { recursive: true, force: true });
});

describe('the transcript archive', () => {
  it('copies a growing transcript at line boundaries and gives back every line as the original bytes', async () => {
    const archive = open();
    const live = liveCopyOf(BIG);
    const ends = lineEnds(live.bytes);
    // seven copies, the first few lines in, then ever larger steps
    const stops = [1, 5, 40, 200, Math.floor(ends.length / 2), ends.length - 3, ends.length].map((i) => ends[i - 1]);
    for (const stop of stops) {
      live.growTo(stop);
      await archive.copy('-home-me-api/abc.jsonl', live.path, stop);
      expect(archive.archivedTo('-home-me-api/abc.jsonl')).toBe(stop);
    }
    const wrongLines: number[] = [];
    for (const [i, end] of ends.entries()) {
      const start = i === 0 ? 0 : ends[i - 1];
      if (!(await archive.read('-home-me-api/abc.jsonl', start, end - start)).equals(live.bytes.subarray(start, end))) wrongLines.push(i + 1);
    }
    expect(ends.length).toBe(1512);
    expect(wrongLines).toEqual([]);
    const [file] = archive.list();
    expect(file).toMatchObject({ name: '-home-me-api/abc.jsonl', path: live.path, rawBytes: live.bytes.length, copiedAt: clock });
    expect(file.storedBytes).toBeLessThan(live.bytes.length / 4);
  });

  it('reads a range that spans chunks, and one that runs from the last chunk into the uncompressed tail', async () => {
    const archive = open();
    const { bytes } = await copyWhole(archive, 'big.jsonl', BIG);
    const tailStart = Math.floor(bytes.length / CHUNK_BYTES) * CHUNK_BYTES;
    for (const [offset, length] of [
      [CHUNK_BYTES - 1000, 2000],
      [CHUNK_BYTES - 10, 2 * CHUNK_BYTES + 20],
      [tailStart - 500, 1000],
      [0, bytes.length],
    ]) {
      expect(sha(await archive.read('big.jsonl', offset, length))).toBe(sha(bytes.subarray(offset, offset + length)));
    }
  });

  it('copies several transcripts at once, each copy holding its own bytes (their reads share no buffer)', async () => {
    const archive = open({ chunkBytes: 16 * 1024 });
    const fixtures = [BIG, MEDIUM, SMALL, TINY, BIG, MEDIUM];
    const lives = await Promise.all(fixtures.map((fixture, i) => copyWhole(archive, `p/${i}.jsonl`, fixture)));
    // a second round reuses the buffers the first gave back
    const more = await Promise.all(fixtures.map((fixture, i) => copyWhole(archive, `q/${i}.jsonl`, fixture)));
    for (const [i, live] of [...lives, ...more].entries()) {
      const name = `${i < fixtures.length ? 'p' : 'q'}/${i % fixtures.length}.jsonl`;
      expect(sha(await readAll(archive, name)), name).toBe(sha(live.bytes));
    }
  });

  it("compresses each chunk with a window no larger than the chunk needs, not brotli's 4 MiB default", async () => {
    const archive = open();
    const { bytes } = await copyWhole(archive, 'big.jsonl', BIG);
    const chunks = readFileSync(onlyFile('.chunks'));
    // a brotli stream opens with its window's size: 1 bit set, then 3 bits n, the window 2^(17 + n)
    const first = chunks[0];
    expect(first & 1).toBe(1);
    expect(17 + ((first >> 1) & 7)).toBe(19);
    expect(sha(await readAll(archive, 'big.jsonl'))).toBe(sha(bytes));
  });

  it('keeps a few read buffers after a burst of copies at once, not one per copy that ran (a session caught up with its subagents)', async () => {
    const archive = open();
    await Promise.all(Array.from({ length: 64 }, (_, i) => copyWhole(archive, `burst/${i}.jsonl`, TINY)));
    // 64 copies of 50 KB each: the old code's buffers were garbage once written, about 3 MB
    const pooled = (archive as unknown as { readBuffers: Buffer[] }).readBuffers;
    expect(pooled.reduce((bytes, buffer) => bytes + buffer.length, 0)).toBeLessThanOrEqual(4 * CHUNK_BYTES);
    for (const i of [0, 63]) expect(sha(await readAll(archive, `burst/${i}.jsonl`))).toBe(sha(readFileSync(TINY)));
  });

  it('goes on with a copy whose tail is longer than a chunk (opened again with smaller chunks), never past the end it is given', async () => {
    const first = open({ chunkBytes: 64 * 1024 });
    const live = liveCopyOf(BIG);
    live.growTo(20 * 1024);
    await first.copy('big.jsonl', live.path, 20 * 1024);
    await first.close();

    const again = open({ chunkBytes: 16 * 1024 });
    live.growTo(60 * 1024);
    await again.copy('big.jsonl', live.path, 25 * 1024);
    expect(again.archivedTo('big.jsonl')).toBe(25 * 1024);
    expect(sha(await readAll(again, 'big.jsonl'))).toBe(sha(live.bytes.subarray(0, 25 * 1024)));
    await again.copy('big.jsonl', live.path, 60 * 1024);
    expect(sha(await readAll(again, 'big.jsonl'))).toBe(sha(live.bytes.subarray(0, 60 * 1024)));
  });

  it('never rewrites a chunk: the chunk file only grows, its earlier bytes unchanged', async () => {
    const archive = open();
    const live = liveCopyOf(BIG);
    const ends = lineEnds(live.bytes);
    let before: Buffer | null = null;
    for (const stop of [ends[600], ends[1200], ends[ends.length - 1]]) {
      live.growTo(stop);
      await archive.copy('big.jsonl', live.path, stop);
      const chunks = readFileSync(onlyFile('.chunks'));
      if (before) {
        expect(chunks.length).toBeGreaterThan(before.length);
        expect(sha(chunks.subarray(0, before.length))).toBe(sha(before));
      }
      before = chunks;
    }
  });

  it('keeps every copy across a close and a reopen', async () => {
    const first = open();
    const { bytes: big } = await copyWhole(first, 'a/big.jsonl', BIG);
    const { bytes: small } = await copyWhole(first, 'b/small.jsonl', SMALL);
    const status = first.status();
    await first.close();

    const again = open();
    expect(again.status()).toEqual(status);
    expect(sha(await readAll(again, 'a/big.jsonl'))).toBe(sha(big));
    expect(sha(await readAll(again, 'b/small.jsonl'))).toBe(sha(small));
    expect(logged).toEqual([]);
  });

  it('cuts away a torn last table row and the chunk it indexed, reads the rest, and copies the lost part again', async () => {
    const first = open();
    const live = await copyWhole(first, 'big.jsonl', BIG);
    await first.close();
    const chunks = Math.floor(live.bytes.length / CHUNK_BYTES);
    // a crash mid-write: half of the last row, and part of the last chunk
    truncateSync(onlyFile('.table'), statSync(onlyFile('.table')).size - 16);
    truncateSync(onlyFile('.chunks'), statSync(onlyFile('.chunks')).size - 100);

    const again = open();
    expect(again.archivedTo('big.jsonl')).toBe((chunks - 1) * CHUNK_BYTES);
    expect(logged.join('\n')).toMatch(/offset table of big\.jsonl ended in 16 bytes that were not a sound row/);
    expect(logged.join('\n')).toMatch(/chunk file of big\.jsonl ended in \d+ bytes no row points to/);
    expect(logged.join('\n')).toMatch(/follow chunks that were lost/);
    expect(sha(await readAll(again, 'big.jsonl'))).toBe(sha(live.bytes.subarray(0, (chunks - 1) * CHUNK_BYTES)));

    await again.copy('big.jsonl', live.path, live.bytes.length);
    expect(sha(await readAll(again, 'big.jsonl'))).toBe(sha(live.bytes));
  });

  it('ignores a row that points past the chunk file and a row of zeros a power cut left', async () => {
    const first = open();
    const { bytes } = await copyWhole(first, 'medium.jsonl', MEDIUM);
    await first.close();
    const chunks = Math.floor(bytes.length / CHUNK_BYTES);
    // the last chunk never reached the disk, though its row did
    const chunkFile = onlyFile('.chunks');
    const table = readFileSync(onlyFile('.table'));
    const lastRow = table.subarray(table.length - 32);
    truncateSync(chunkFile, lastRow.readUInt32LE(12) + 10);
    appendFileSync(onlyFile('.table'), Buffer.alloc(32));

    const again = open();
    expect(again.archivedTo('medium.jsonl')).toBe((chunks - 1) * CHUNK_BYTES);
    expect(sha(await readAll(again, 'medium.jsonl'))).toBe(sha(bytes.subarray(0, (chunks - 1) * CHUNK_BYTES)));
  });

  it('removes a tail that a chunk already holds, as a crash after the chunk was written leaves it', async () => {
    const first = open();
    const live = liveCopyOf(MEDIUM);
    live.growTo(CHUNK_BYTES - 1000);
    await first.copy('m.jsonl', live.path, CHUNK_BYTES - 1000);
    const tail = onlyFile('.tail');
    const kept = `${tail}.kept`;
    copyFileSync(tail, kept);
    live.growTo(CHUNK_BYTES + 500);
    await first.copy('m.jsonl', live.path, CHUNK_BYTES + 500);
    await first.close();
    renameSync(kept, tail);
    expect(filesEnding('.tail')).toHaveLength(2);

    const again = open();
    expect(filesEnding('.tail')).toHaveLength(1);
    expect(sha(await readAll(again, 'm.jsonl'))).toBe(sha(live.bytes.subarray(0, CHUNK_BYTES + 500)));
    expect(logged).toEqual([]);
  });

  it('starts the copy again when the file is replaced or truncated, with one log line', async () => {
    const archive = open();
    const live = await copyWhole(archive, 's.jsonl', SMALL);

    const other = readFileSync(TINY);
    writeFileSync(live.path, other);
    await archive.copy('s.jsonl', live.path, other.length);
    expect(sha(await readAll(archive, 's.jsonl'))).toBe(sha(other));
    expect(logged).toEqual([
      `archive: s.jsonl no longer starts with the bytes its copy starts with, so the old copy (${live.bytes.length} bytes) is dropped and a new one started`,
    ]);

    truncateSync(live.path, 100);
    await archive.copy('s.jsonl', live.path, 100);
    expect(sha(await readAll(archive, 's.jsonl'))).toBe(sha(other.subarray(0, 100)));
    expect(logged).toHaveLength(2);
    expect(filesEnding('.table')).toHaveLength(1);
  });

  it('compresses the tail of a transcript gone quiet, and goes on appending after it', async () => {
    const archive = open({ quietMs: 60_000 });
    const live = liveCopyOf(SMALL);
    const ends = lineEnds(live.bytes);
    const half = ends[Math.floor(ends.length / 2)];
    live.growTo(half);
    await archive.copy('s.jsonl', live.path, half);
    expect(archive.status().storedBytes).toBeGreaterThan(half);

    clock += 30_000;
    await archive.settle();
    expect(archive.status().storedBytes).toBeGreaterThan(half);
    clock += 30_000;
    await archive.settle();
    expect(archive.status().storedBytes).toBeLessThan(half / 3);

    live.growTo(live.bytes.length);
    await archive.copy('s.jsonl', live.path, live.bytes.length);
    expect(sha(await readAll(archive, 's.jsonl'))).toBe(sha(live.bytes));
  });

  it('keeps under its cap by dropping the least recently copied transcripts, and counts those whose file was already deleted', async () => {
    // the same bytes compress the same way: measure each copy's size in a scratch archive
    const fixtures = { 'old.jsonl': SMALL, 'middle.jsonl': TINY, 'new.jsonl': BIG, 'biggest.jsonl': MEDIUM };
    const scratch = open({ dir: join(root, 'scratch') });
    for (const [name, fixture] of Object.entries(fixtures)) await copyWhole(scratch, name, fixture);
    const size = (name: string): number => scratch.list().find((f) => f.name === name)!.storedBytes;
    const [old, middle, latest] = [size('old.jsonl'), size('middle.jsonl'), size('new.jsonl')];
    const cap = old + middle + latest - 1;
    expect(size('biggest.jsonl')).toBeGreaterThan(cap);

    const archive = open({ capBytes: cap });
    await copyWhole(archive, 'old.jsonl', SMALL);
    clock += 1000;
    await copyWhole(archive, 'middle.jsonl', TINY);
    clock += 1000;
    // Claude Code's cleanup deletes the oldest transcript: its copy is all that is left
    rmSync(archive.list().find((f) => f.name === 'old.jsonl')!.path);
    expect(archive.status().archiveOnly).toBe(1);
    await copyWhole(archive, 'new.jsonl', BIG);

    expect(archive.list().map((f) => f.name)).toEqual(['middle.jsonl', 'new.jsonl']);
    expect(archive.status()).toMatchObject({ files: 2, capBytes: cap, archiveOnly: 0, dropped: { files: 1, bytes: old, archiveOnly: 1 } });
    expect(logged).toEqual([
      `archive: dropped the copy of old.jsonl (${old} bytes, last copied 2026-05-01T10:00:00.000Z) to stay under the cap of ${cap} bytes; its transcript was already deleted, so this session is gone`,
    ]);

    clock += 1000;
    await copyWhole(archive, 'biggest.jsonl', MEDIUM);
    // the copy written last stays even though it alone is over the cap
    expect(archive.list().map((f) => f.name)).toEqual(['biggest.jsonl']);
    expect(archive.status().dropped).toEqual({ files: 3, bytes: old + middle + latest, archiveOnly: 1 });
    await archive.close();
    expect(open().status().dropped).toEqual({ files: 3, bytes: old + middle + latest, archiveOnly: 1 });
  });

  it('moves a corrupt catalog aside and rebuilds it from the copies, which go on growing where they were', async () => {
    const first = open();
    const live = liveCopyOf(MEDIUM);
    const ends = lineEnds(live.bytes);
    const half = ends[Math.floor(ends.length / 2)];
    live.growTo(half);
    await first.copy('m.jsonl', live.path, half);
    const { bytes: small } = await copyWhole(first, 's.jsonl', SMALL);
    await first.close();
    writeFileSync(join(dir, 'catalog.json'), '{"format": 1, "transcripts": [ {"na');

    const again = open();
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^archive: the catalog could not be read, so it was moved to .*catalog\.json\.corrupt-.* and is rebuilt from the copies' own tables$/,
    );
    expect(readdirSync(dir).filter((f) => f.startsWith('catalog.json'))).toHaveLength(2);
    expect(
      again
        .list()
        .map((f) => [f.name, f.path])
        .sort(),
    ).toEqual([
      ['m.jsonl', live.path],
      ['s.jsonl', join(root, 'projects', `${sha(Buffer.from('s.jsonl')).slice(0, 8)}.jsonl`)],
    ]);
    expect(sha(await readAll(again, 's.jsonl'))).toBe(sha(small));
    live.growTo(live.bytes.length);
    await again.copy('m.jsonl', live.path, live.bytes.length);
    expect(logged).toHaveLength(1);
    expect(sha(await readAll(again, 'm.jsonl'))).toBe(sha(live.bytes));
  });

  it('names its files by hash, so a hostile name never leaves the archive dir', async () => {
    const archive = open();
    const { bytes } = await copyWhole(archive, '../../etc/passwd', SMALL);
    await copyWhole(archive, '/abs/../../x.jsonl', TINY);
    expect(readdirSync(join(root, 'state'))).toEqual(['archive']);
    for (const file of readdirSync(dir)) expect(file).toMatch(/^([0-9a-f]{32}(\.table|\.chunks|-\d+\.tail)|catalog\.json)$/);
    expect(sha(await readAll(archive, '../../etc/passwd'))).toBe(sha(bytes));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('refuses bad reads and copies with one sentence, never a crash', async () => {
    const archive = open();
    const { bytes } = await copyWhole(archive, 's.jsonl', SMALL);
    await expect(archive.read('s.jsonl', bytes.length - 1, 2)).rejects.toThrow(
      `bytes ${bytes.length - 1} to ${bytes.length + 1} lie outside the archived copy of s.jsonl, which holds ${bytes.length} bytes`,
    );
    await expect(archive.read('s.jsonl', -1, 2)).rejects.toThrow(/lie outside the archived copy/);
    await expect(archive.read('s.jsonl', 0.5, 2)).rejects.toThrow(/lie outside the archived copy/);
    await expect(archive.read('nothing.jsonl', 0, 1)).rejects.toThrow('the archive holds no copy of nothing.jsonl');
    await expect(archive.copy('gone.jsonl', join(root, 'no-such-file.jsonl'), 10)).rejects.toThrow(
      /^cannot archive gone\.jsonl: .* could not be opened \(ENOENT\)$/,
    );
    await expect(archive.copy('', join(root, 'x'), 10)).rejects.toThrow(/name must be a path/);
    await expect(archive.copy('s.jsonl', join(root, 'x'), -4)).rejects.toThrow(/must be a byte offset/);
    expect(archive.has('gone.jsonl')).toBe(false);
    // damage inside a chunk is caught by its checksum
    const chunkFile = onlyFile('.chunks');
    const chunks = readFileSync(chunkFile);
    chunks[100] ^= 0xff;
    writeFileSync(chunkFile, chunks);
    await expect(archive.read('s.jsonl', 0, 10)).rejects.toThrow('chunk 1 of the archived copy of s.jsonl is damaged and cannot be read');
  });
});
