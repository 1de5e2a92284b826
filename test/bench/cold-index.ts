import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { LocalSource, type LocalSourceOptions } from '../../spoke/source';

// Child process: one full index of a projects tree by the kernel's LocalSource, timed from the
// process's start (performance.now(): imports and all, as `loom up` pays them) to "indexing
// done"; the time its imports took is reported beside it, and the CPU time of all its threads
// (workers, V8's own, libuv's) to the same moment. With a cache file that already exists, this
// is a warm restart; with none given, a cold index that writes a new one, as `loom up`'s first
// start does.
//
// `--workers N` asks for N index workers through LocalSource's `indexWorkers` (without it, the
// kernel's default for this machine). The kernel reports the workers it uses as
// `indexing.workers`; a kernel that reports none makes the bench print "n/a" for any run that
// asked for workers.

const { values, positionals } = parseArgs({ allowPositionals: true, options: { workers: { type: 'string' } } });
const [root, cacheFile] = positionals;
// without a cache file, a new one in a fresh dir: `loom up` always keeps one (and with it, sleeping sessions' usage rows on disk)
const fresh = cacheFile ? null : mkdtempSync(join(tmpdir(), 'loom-bench-cold-'));
const options: LocalSourceOptions = { projectsRoot: root, host: 'bench', cacheFile: cacheFile || join(fresh!, 'index-cache.json') };
if (values.workers !== undefined) options.indexWorkers = Number(values.workers);
const source = new LocalSource(options);
const importsMs = performance.now();
await source.start();
const ms = performance.now();
// every thread's: the workers', V8's compiler and collector threads', libuv's reads
const cpu = process.cpuUsage();
const { indexing, sessionCount } = source.kernel();
await source.stop();
if (fresh) rmSync(fresh, { recursive: true, force: true });
console.log(
  JSON.stringify({
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    importsMs,
    bytes: indexing.bytesDone,
    files: indexing.filesDone,
    fromCache: indexing.filesFromCache,
    sessionCount,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
    workers: indexing.workers,
    filesByWorkers: indexing.filesByWorkers,
  }),
);
