import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { boundHeapGrowth } from '../../server/heap-growth';
import type { IndexingProgress } from '../../spoke/model/types';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';

// the kernel's heap as `loom up` sets it
boundHeapGrowth();

// Child process: one full index of a projects tree by the kernel's LocalSource, timed from the
// process's start (performance.now(): imports and all, as `loom up` pays them) to "indexing
// done"; the time its imports took is reported beside it. With a cache file that already
// exists, this is a warm restart; with none given, a cold index that writes a new one, as `loom up`'s first start does.
//
// `--workers N` asks for N index workers through `indexWorkers`, an option LocalSource does not
// have yet (issue #21 adds worker threads for the first read): until it does, it is ignored.
// The kernel reports the workers it used as `indexing.workers`; while it reports none, the
// bench prints "n/a" for any run that asked for workers.

const { values, positionals } = parseArgs({ allowPositionals: true, options: { workers: { type: 'string' } } });
const [root, cacheFile] = positionals;
// without a cache file, a new one in a fresh dir: `loom up` always keeps one (and with it, sleeping sessions' usage rows on disk)
const fresh = cacheFile ? null : mkdtempSync(join(tmpdir(), 'loom-bench-cold-'));
const options: LocalSourceOptions & { indexWorkers?: number } = { projectsRoot: root, host: 'bench', cacheFile: cacheFile || join(fresh!, 'index-cache.json') };
if (values.workers !== undefined) options.indexWorkers = Number(values.workers);
const source = new LocalSource(options);
const importsMs = performance.now();
await source.start();
const ms = performance.now();
const { indexing, sessionCount } = source.kernel();
await source.stop();
if (fresh) rmSync(fresh, { recursive: true, force: true });
console.log(
  JSON.stringify({
    ms,
    importsMs,
    bytes: indexing.bytesDone,
    files: indexing.filesDone,
    fromCache: indexing.filesFromCache,
    sessionCount,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    workers: (indexing as IndexingProgress & { workers?: number }).workers ?? null,
  }),
);
