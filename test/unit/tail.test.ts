import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readlinkSync, renameSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTail, type Line, type LineSink } from '../../spoke/transcripts/tail';
import { until } from '../helpers/wait';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-tail-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

type Copied = Pick<Line, 'text' | 'number' | 'offset' | 'length'>;

/** Keeps what each line said: a line is only valid during the sink's call. */
function collector() {
  const lines: Copied[] = [];
  const restarts: string[] = [];
  const copy = ({ text, number, offset, length }: Line) => lines.push({ text, number, offset, length });
  return { lines, restarts, sink: { line: copy, restart: (o: string) => restarts.push(o) } };
}

/** This process's open descriptors of a file (Linux). */
const descriptorsOf = (file: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === file;
    } catch {
      return false; // closed since it was listed
    }
  });

// The first index's reads beside index workers are on the reading thread itself (onThisThread);
// every other read is on libuv's threads. Both read the same lines.
describe.each([
  ["on libuv's threads", false],
  ['on its own thread', true],
])('FileTail reading %s', (_, onThisThread) => {
  class TailUnderTest extends FileTail {
    override read(sink: LineSink, limit?: number) {
      return super.read(sink, limit, onThisThread);
    }
  }
  const tailOf = (file: string) => new TailUnderTest(file);

  it('delivers a line only once its newline arrives, even when a write splits a UTF-8 character', async () => {
    const file = join(dir, 'a.jsonl');
    const line = Buffer.from('{"text":"naïve café ✓"}\n');
    const cut = line.indexOf(Buffer.from('✓')) + 1; // inside the three bytes of ✓
    writeFileSync(file, line.subarray(0, cut));
    const tail = tailOf(file);
    const c = collector();
    await tail.read(c.sink);
    expect(c.lines).toHaveLength(0);
    appendFileSync(file, line.subarray(cut));
    await tail.read(c.sink);
    expect(c.lines.map((l) => l.text)).toEqual(['{"text":"naïve café ✓"}']);
    expect(c.lines[0]).toMatchObject({ number: 1, offset: 0, length: line.length - 1 });
  });

  it('reads only the new bytes on each call and numbers lines across calls', async () => {
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":2}\n');
    const tail = tailOf(file);
    const c = collector();
    await tail.read(c.sink);
    appendFileSync(file, '{"n":3}\n');
    await tail.read(c.sink);
    expect(await tail.read(c.sink)).toBe('unchanged');
    expect(c.lines.map((l) => [l.number, l.offset, l.text])).toEqual([
      [1, 0, '{"n":1}'],
      [2, 8, '{"n":2}'],
      [3, 16, '{"n":3}'],
    ]);
  });

  it('reads a file again from the start when it shrinks', async () => {
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":2}\n');
    const tail = tailOf(file);
    const c = collector();
    await tail.read(c.sink);
    truncateSync(file, 8);
    expect(await tail.read(c.sink)).toBe('truncated');
    expect(c.restarts).toEqual(['truncated']);
    expect(c.lines.map((l) => l.text)).toEqual(['{"n":1}', '{"n":2}', '{"n":1}']);
  });

  it('reads a replaced file from the start even when it is larger', async () => {
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{"n":1}\n');
    const tail = tailOf(file);
    const c = collector();
    await tail.read(c.sink);
    writeFileSync(join(dir, 'b.tmp'), '{"m":1}\n{"m":2}\n');
    renameSync(join(dir, 'b.tmp'), file);
    expect(await tail.read(c.sink)).toBe('replaced');
    expect(c.lines.map((l) => l.text)).toEqual(['{"n":1}', '{"m":1}', '{"m":2}']);
  });

  it('carries a line longer than its read buffer across chunks', async () => {
    const file = join(dir, 'a.jsonl');
    const big = `{"data":"${'x'.repeat(3 * 1024 * 1024)}"}`;
    writeFileSync(file, `${big}\n{"n":2}\n`);
    const c = collector();
    await tailOf(file).read(c.sink);
    expect(c.lines.map((l) => l.text.length)).toEqual([big.length, 7]);
    expect(c.lines[1].offset).toBe(big.length + 1);
  });

  it("hands each line's bytes, a line carried across chunks too, and decodes its text only when asked", async () => {
    const file = join(dir, 'a.jsonl');
    const big = `{"data":"${'é'.repeat(700 * 1024)}"}`; // 1.4 MB: longer than a read buffer
    writeFileSync(file, `{"n":"ü"}\n${big}\n`);
    const seen: string[] = [];
    await tailOf(file).read({
      restart: () => {},
      line: (l) => seen.push(l.bytes.toString('utf8', l.start, l.start + l.length)),
    });
    expect(seen).toEqual(['{"n":"ü"}', big]);
  });

  it("refuses a line's text asked for after the sink returned, when the buffer holds other bytes", async () => {
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":2}\n');
    const kept: Line[] = [];
    await tailOf(file).read({ restart: () => {}, line: (l) => kept.push(l) });
    expect(() => kept[0].text).toThrow(/after its sink returned/);
  });

  it('reads several files at once, each with read buffers of its own', async () => {
    const lines = (tag: string) => Array.from({ length: 3000 }, (_, i) => `{"${tag}":${i},"pad":"${tag.repeat(900)}"}`);
    const files = ['a', 'b', 'c'].map((tag) => {
      const path = join(dir, `${tag}.jsonl`);
      writeFileSync(path, `${lines(tag).join('\n')}\n`); // ~2.7 MB: three chunks each
      return { tag, path, c: collector() };
    });
    await Promise.all(files.map(({ path, c }) => tailOf(path).read(c.sink)));
    for (const { tag, c } of files) expect(c.lines.map((l) => l.text)).toEqual(lines(tag));
  });

  it('takes a prefetch made at the offset it reads from; what was written after it comes with the next read at the latest', async () => {
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{"n":1}\n');
    const tail = tailOf(file);
    const c = collector();
    await tail.read(c.sink);
    appendFileSync(file, '{"n":2}\n');
    tail.prefetch();
    appendFileSync(file, '{"n":3}\n');
    await tail.read(c.sink);
    expect(c.lines.map((l) => l.text)).toContain('{"n":2}');
    await tail.read(c.sink);
    expect(c.lines.map((l) => [l.number, l.offset, l.text])).toEqual([
      [1, 0, '{"n":1}'],
      [2, 8, '{"n":2}'],
      [3, 16, '{"n":3}'],
    ]);
  });

  it('reads past a prefetch made before the tail moved, and past a file longer than one chunk', async () => {
    const file = join(dir, 'a.jsonl');
    const lines = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(900)}"}`); // ~2.7 MB
    writeFileSync(file, `${lines.join('\n')}\n`);
    const tail = tailOf(file);
    tail.prefetch();
    tail.resume({ offset: lines[0].length + 1, lines: 1, ino: statSync(file).ino });
    const c = collector();
    await tail.read(c.sink);
    expect(c.lines.map((l) => l.text)).toEqual(lines.slice(1));
    expect(c.lines[0]).toMatchObject({ number: 2, offset: lines[0].length + 1 });
  });

  it('says a prefetched file that is gone is missing', async () => {
    const tail = tailOf(join(dir, 'gone.jsonl'));
    tail.prefetch();
    expect(await tail.read(collector().sink)).toBe('missing');
  });

  it.skipIf(process.platform !== 'linux')('refuses a FIFO named like a transcript at once, without waiting for a writer', async () => {
    const fifo = join(dir, 'pipe.jsonl');
    execFileSync('mkfifo', [fifo]);
    // a writer comes later, so that an open waiting for one would end rather than hold the thread for good
    const writer = spawn('sh', ['-c', `sleep 2; printf '{"n":1}\\n' > '${fifo}'`]);
    try {
      const started = Date.now();
      const reading = tailOf(fifo).read(collector().sink);
      const held = Date.now() - started;
      await expect(reading).rejects.toThrow('not a regular file');
      expect(held).toBeLessThan(1000);
      expect(descriptorsOf(fifo)).toEqual([]);
    } finally {
      writer.kill('SIGKILL');
    }
  });

  it.skipIf(process.platform !== 'linux')('closes the file after a read, after a sink that throws, and when a prefetch is dropped', async () => {
    const file = join(dir, 'a.jsonl');
    writeFileSync(file, '{"n":1}\n{"n":2}\n');
    const tail = tailOf(file);
    await tail.read(collector().sink);
    expect(descriptorsOf(file)).toEqual([]);
    appendFileSync(file, '{"n":3}\n');
    const throwing = {
      restart: () => {},
      line: () => {
        throw new Error('sink failed');
      },
    };
    await expect(tail.read(throwing)).rejects.toThrow('sink failed');
    expect(descriptorsOf(file)).toEqual([]);
    tail.prefetch();
    expect(descriptorsOf(file)).toHaveLength(1);
    tail.dropPrefetch();
    // closed once the read begun ahead is done, on libuv's threads
    await until(() => descriptorsOf(file).length === 0, 'the dropped prefetch to close the file');
  });

  it("passes on a sink's error from the first of several chunks, and closes the file", async () => {
    const file = join(dir, 'a.jsonl');
    const line = `{"data":"${'x'.repeat(1000)}"}\n`;
    writeFileSync(file, line.repeat(3000));
    const throwing = {
      restart: () => {},
      line: () => {
        throw new Error('sink failed');
      },
    };
    await expect(tailOf(file).read(throwing)).rejects.toThrow('sink failed');
    if (process.platform === 'linux') expect(descriptorsOf(file)).toEqual([]);
  });

  it('says a missing file is missing instead of throwing', async () => {
    expect(await tailOf(join(dir, 'gone.jsonl')).read(collector().sink)).toBe('missing');
  });
});
