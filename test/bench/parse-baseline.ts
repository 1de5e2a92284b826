import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileTail } from '../../spoke/transcripts/tail';

// Child process: the floor any indexer stands on. Reads every transcript with the same tail
// reader the kernel uses, splits lines and JSON.parses each, nothing more; then JSON.parse
// alone over a sample of those lines held in memory.

const SAMPLE_BYTES = 128 * 1024 * 1024;
const root = process.argv[2];
const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
  .map((e) => join(e.parentPath, e.name));
let bytes = 0;
let lines = 0;
const started = performance.now();
for (const file of files) {
  const tail = new FileTail(file);
  await tail.read({
    restart: () => {},
    line: (l) => {
      JSON.parse(l.text);
      lines++;
    },
  });
  bytes += tail.offset;
}
const ms = performance.now() - started;

const sample: string[] = [];
let sampleBytes = 0;
for (const file of files) {
  if (sampleBytes >= SAMPLE_BYTES) break;
  await new FileTail(file).read({
    restart: () => {},
    line: (l) => {
      sample.push(l.text);
      sampleBytes += l.length + 1;
    },
  });
}
const parseStarted = performance.now();
for (const text of sample) JSON.parse(text);
const parseOnlyMs = performance.now() - parseStarted;

console.log(JSON.stringify({ ms, bytes, lines, parseOnlyMs, sampleBytes }));
