import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { LocalSource } from '../../spoke/source';
import { SEARCH_QUERIES } from './search-queries';

// Child process: the kernel's LocalSource with search on, over a projects tree. Times the first
// index, then the search index's background pass, then every query of SEARCH_QUERIES three
// times through LocalSource.search (index, placing each hit in its session and turn, snippets).
// Peak RSS is this process's: the kernel's own memory, with search on.

const [root] = process.argv.slice(2);
const stateDir = mkdtempSync(join(tmpdir(), 'loom-bench-search-'));
const searchFile = join(stateDir, 'search.db');
const source = new LocalSource({ projectsRoot: root, host: 'bench', searchFile });
const started = performance.now();
await source.start();
const coldMs = performance.now() - started;
const coldRssMB = process.resourceUsage().maxRSS / 1024;
while (!source.kernel().searchIndexing?.done) await sleep(50);
const buildMs = performance.now() - started - coldMs;
const { searchIndexing } = source.kernel();
const size = (suffix: string) => statSync(`${searchFile}${suffix}`, { throwIfNoEntry: false })?.size ?? 0;
const indexBytes = size('') + size('-wal');

const times: number[] = [];
const firstPass: number[] = [];
for (let rep = 0; rep < 3; rep++) {
  for (const query of SEARCH_QUERIES) {
    const t = performance.now();
    await source.search({ query, filter: {}, hosts: null, first: 20, offset: 0 });
    const ms = performance.now() - t;
    times.push(ms);
    if (rep === 0) firstPass.push(ms);
  }
}
await source.stop();
rmSync(stateDir, { recursive: true, force: true });
console.log(
  JSON.stringify({
    coldMs,
    coldRssMB,
    buildMs,
    bytes: searchIndexing?.bytesDone ?? 0,
    indexBytes,
    times,
    firstPass,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  }),
);
