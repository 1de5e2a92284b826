import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { isScannerReadBuffer, READ_BUFFER_BYTES } from '../../spoke/transcripts/line-scanner-memory';
import { FileTail, type LineSink } from '../../spoke/transcripts/tail';

// A FileTail's read buffers are the line scanner's memory while it has some to give (16 of
// them, its for good): a read that ends in an error must give back every one it took, or after
// a few such reads every line is read from a buffer the scanner has to copy it out of. The
// index's own sink throws in real use (a line too long to hand over, a file restarted).

let dir: string;
let file: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-tail-buffers-'));
  file = join(dir, 'a.jsonl');
  // three chunks: a read has the next one in flight while a sink is called
  const line = `{"data":"${'x'.repeat(1000)}"}\n`;
  writeFileSync(file, line.repeat(Math.ceil((3 * READ_BUFFER_BYTES) / line.length)));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const throwing: LineSink = {
  restart: () => {},
  line: () => {
    throw new Error('sink failed');
  },
};

/** How many of the file's lines a fresh read hands in the scanner's memory, of how many. */
async function linesInScannerMemory(onThisThread: boolean): Promise<[number, number]> {
  let inScanner = 0;
  let lines = 0;
  await new FileTail(file).read(
    {
      restart: () => {},
      line: (line) => {
        lines++;
        if (isScannerReadBuffer(line.bytes)) inScanner++;
      },
    },
    Infinity,
    onThisThread,
  );
  return [inScanner, lines];
}

/** Every line but those carried across two chunks (copied whole) lies where it was read. */
function expectAllButCarried([inScanner, lines]: [number, number]): void {
  expect(lines).toBeGreaterThan(3000);
  expect(lines - inScanner, "lines not in the scanner's memory").toBeLessThanOrEqual(3);
}

it.each([
  ["on libuv's threads", false],
  ['on its own thread', true],
])('gives back its read buffers after a sink that throws, reading %s, time after time', async (_, onThisThread) => {
  for (let i = 0; i < 40; i++) await expect(new FileTail(file).read(throwing, Infinity, onThisThread)).rejects.toThrow('sink failed');
  expectAllButCarried(await linesInScannerMemory(onThisThread));
});

it.skipIf(process.platform !== 'linux')('gives back its read buffers after reads the disk refuses, prefetched or not', async () => {
  // a regular file every read of which fails (EIO): a read failing after the open, as a disk's can
  const failing = '/proc/self/mem';
  for (let i = 0; i < 40; i++) {
    await expect(new FileTail(failing).read(throwing)).rejects.toThrow();
    await expect(new FileTail(failing).read(throwing, Infinity, true)).rejects.toThrow();
    const prefetched = new FileTail(failing);
    prefetched.prefetch();
    await expect(prefetched.read(throwing)).rejects.toThrow();
  }
  expectAllButCarried(await linesInScannerMemory(false));
});
