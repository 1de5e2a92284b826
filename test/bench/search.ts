import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { child } from './child';
import { ensureCorpus } from './corpus';

// `npm run bench:search -- --mb 1024 --files 1000 --runs 2`: the search figures in
// docs/performance.md. Each run is a fresh kernel process on the same corpus; read + split +
// JSON.parse of every line is measured in the same run as the baseline the build is set against.

const { values } = parseArgs({
  options: { mb: { type: 'string', default: '1024' }, files: { type: 'string', default: '1000' }, runs: { type: 'string', default: '2' } },
});

interface ParseRun {
  ms: number;
  bytes: number;
}
interface SearchRun {
  coldMs: number;
  coldRssMB: number;
  buildMs: number;
  bytes: number;
  indexBytes: number;
  times: number[];
  firstPass: number[];
  maxRssMB: number;
}

const MB = 1024 * 1024;
const f = (n: number, d = 0) => n.toFixed(d);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

console.log(`corpus: ${values.mb} MB in ${values.files} files`);
const root = await ensureCorpus(Number(values.mb) * MB, Number(values.files));
const rows: string[] = [];
for (let run = 1; run <= Number(values.runs); run++) {
  const load = loadavg()[0];
  const parse = await child<ParseRun>('parse-baseline.ts', [root]);
  const search = await child<SearchRun>('search-index.ts', [root]);
  const parseMBs = parse.bytes / MB / (parse.ms / 1000);
  const buildMBs = search.bytes / MB / (search.buildMs / 1000);
  rows.push(
    [
      run,
      f(load, 1),
      f(parseMBs),
      f(buildMBs),
      f(buildMBs / parseMBs, 2),
      f(search.indexBytes / MB),
      f((100 * search.indexBytes) / search.bytes, 1),
      f(search.coldRssMB),
      f(search.maxRssMB),
      `${f(pct(search.times, 50), 1)} / ${f(pct(search.times, 99), 1)}`,
      `${f(pct(search.firstPass, 50), 1)} / ${f(pct(search.firstPass, 99), 1)}`,
    ].join(' | '),
  );
  console.log(`| ${rows[rows.length - 1]} |`);
}
console.log(
  '\n| run | load | read + split + JSON.parse MB/s | search build MB/s | build ÷ parse | index MB | index % of corpus | peak RSS after first index MB | peak RSS with search MB | query p50 / p99 ms | first pass p50 / p99 ms |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---|');
for (const row of rows) console.log(`| ${row} |`);
