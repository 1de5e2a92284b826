import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ensureCorpus } from './corpus';
import { measureLatency } from './latency';

// `npm run bench -- --mb 1024 --files 1000 --runs 3`: the figures in docs/performance.md.
// Each index run is a fresh process, so one run's heap never helps the next; JSON.parse's own
// throughput is measured in the same run, beside each figure, because machines differ.

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '1024' },
    files: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    appends: { type: 'string', default: '200' },
  },
});
const bytes = Number(values.mb) * 1024 * 1024;
const runs = Number(values.runs);
const here = import.meta.dirname;

/** What parse-baseline.ts prints: reading, splitting and parsing the corpus, and JSON.parse alone on a sample. */
interface ParseRun {
  ms: number;
  bytes: number;
  lines: number;
  parseOnlyMs: number;
  sampleBytes: number;
}

/** What cold-index.ts prints: one index of the corpus, cold or from a cache. */
interface IndexRun {
  ms: number;
  bytes: number;
  files: number;
  fromCache: number;
  sessionCount: number;
  maxRssMB: number;
}

/** Runs a bench script in its own process; its last line of output is its JSON result. */
function child<Result>(script: string, args: string[]): Result {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(here, script), ...args], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out.trim().split('\n').pop()!) as Result;
}

const mbps = (r: { bytes: number; ms: number }) => r.bytes / 1024 / 1024 / (r.ms / 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const f = (n: number, d = 0) => n.toFixed(d);

console.log(`corpus: ${values.mb} MB in ${values.files} files`);
const root = await ensureCorpus(bytes, Number(values.files));

const rows: string[] = [];
for (let run = 1; run <= runs; run++) {
  const parse = child<ParseRun>('parse-baseline.ts', [root]);
  const cold = child<IndexRun>('cold-index.ts', [root, '']);
  const stateDir = mkdtempSync(join(tmpdir(), 'loom-bench-state-'));
  const cache = join(stateDir, 'index-cache.json');
  child<IndexRun>('cold-index.ts', [root, cache]);
  const warm = child<IndexRun>('cold-index.ts', [root, cache]);
  rmSync(stateDir, { recursive: true, force: true });
  const parseOnly = mbps({ bytes: parse.sampleBytes, ms: parse.parseOnlyMs });
  rows.push(
    `| ${run} | ${f(parseOnly)} | ${f(mbps(parse))} | ${f(mbps(cold))} | ${f(mbps(cold) / mbps(parse), 2)} | ${f(cold.maxRssMB)} | ${f(warm.ms)} ms (${warm.fromCache}/${warm.files} from cache) |`,
  );
  console.log(rows[rows.length - 1]);
}

const latencies = await measureLatency(Number(values.appends), 20);
console.log('\n| run | JSON.parse alone MB/s | read + split + JSON.parse MB/s | cold index MB/s | index ÷ read+parse | cold peak RSS MB | warm restart |');
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
console.log(
  `\nappend → subscriber over ${latencies.length} appends: p50 ${f(median(latencies), 1)} ms, p99 ${f(pct(latencies, 99), 1)} ms, max ${f(Math.max(...latencies), 1)} ms`,
);
