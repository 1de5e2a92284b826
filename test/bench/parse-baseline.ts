import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { FileTail } from '../../spoke/transcripts/tail';

// Child process: the floor any indexer stands on. Reads every transcript with the same tail
// reader the kernel uses, splits lines and JSON.parses each, nothing more.

const root = process.argv[2];
const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.jsonl'))
  .map((e) => join(e.parentPath, e.name));
let bytes = 0;
let lines = 0;
const started = performance.now();
for (const file of files) {
  const tail = new FileTail(file);
  await tail.read({ restart: () => {}, line: (l) => void (JSON.parse(l.text), lines++) });
  bytes += tail.offset;
}
const ms = performance.now() - started;
console.log(JSON.stringify({ ms, bytes, lines, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
