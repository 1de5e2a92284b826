import { LocalSource } from '../../spoke/source';

// Child process: one full index of a projects tree by the kernel's LocalSource, timed from
// start to "indexing done". With a cache file that already exists, this is a warm restart.

const [root, cacheFile] = process.argv.slice(2);
const source = new LocalSource({ projectsRoot: root, host: 'bench', cacheFile: cacheFile || undefined });
const started = performance.now();
await source.start();
const ms = performance.now() - started;
const { indexing, sessionCount } = source.kernel();
await source.stop();
console.log(
  JSON.stringify({
    ms,
    bytes: indexing.bytesDone,
    files: indexing.filesDone,
    fromCache: indexing.filesFromCache,
    sessionCount,
    maxRssMB: process.resourceUsage().maxRSS / 1024,
  }),
);
