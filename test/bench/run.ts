import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { child } from './child';
import { ensureCorpus } from './corpus';
import { LOOM } from './kernel-process';
import { measureLatency } from './latency';
import { newestSessionKeys } from './newest-sessions';
import { ensureRealCorpus } from './real-corpus';

// `npm run bench -- --mb 1024 --files 1000 --runs 3 --corpus both --workers 0,2`: the figures
// in docs/performance.md, one table per corpus (Loom's synthetic one, and copies of the real
// fixtures). Each measurement is a fresh process, so one run's heap never helps the next; the
// baseline (one thread's read + split + JSON.parse of every line) is measured in the same run,
// beside each figure, because machines differ.

const { values } = parseArgs({
  options: {
    mb: { type: 'string', default: '1024' },
    files: { type: 'string', default: '1000' },
    runs: { type: 'string', default: '3' },
    appends: { type: 'string', default: '200' },
    corpus: { type: 'string', default: 'both' },
    workers: { type: 'string', default: '0,2' },
  },
});
const bytes = Number(values.mb) * 1024 * 1024;
const runs = Number(values.runs);
const workerCounts = values.workers.split(',').map(Number);
const corpora = values.corpus === 'both' ? ['synthetic', 'real'] : [values.corpus];
if (corpora.some((c) => c !== 'synthetic' && c !== 'real')) throw new Error(`--corpus ${values.corpus}: one of synthetic, real, both`);
/** how many of the newest sessions make the first screen; more are asked for, as some files list none */
const FIRST_SCREEN_CANDIDATES = 100;

/** What parse-baseline.ts prints: reading, splitting and parsing the corpus. */
interface ParseRun {
  ms: number;
  bytes: number;
}

/** What cold-index.ts prints: one index of the corpus, cold or from a cache, timed from the process's start. */
interface IndexRun {
  ms: number;
  /** CPU time of all the process's threads (user + system) to the same moment */
  cpuMs: number;
  importsMs: number;
  bytes: number;
  files: number;
  fromCache: number;
  maxRssMB: number;
  /** the index workers the kernel says it used; null while it has none to report */
  workers: number | null;
}

/** What first-sessions.ts prints: when `loom up` printed its link, when the newest sessions were listed, and when indexing was done. */
interface FirstScreen {
  linkMs: number;
  /** the 50 listed, each with a name */
  listedMs: number;
  /** the 50 listed, each with the name it ends with */
  firstMs: number;
  doneMs: number;
  sessions: number;
  /** `loom up`'s peak RSS at indexing done, and once its search pass is done; null where the OS does not tell */
  peakRssMB: number | null;
  searchPeakRssMB: number | null;
}

const mbps = (r: { bytes: number; ms: number }) => r.bytes / 1024 / 1024 / (r.ms / 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const f = (n: number, d = 0) => n.toFixed(d);
const seconds = (ms: number) => `${f(ms / 1000, 2)} s`;
const machine = () =>
  `load average ${loadavg()
    .map((l) => f(l, 2))
    .join(' ')}, ${availableParallelism()} cores`;
const workersLabel = (n: number) => (n === 0 ? 'one thread' : `${n} workers`);

/** Whether the kernel runs index workers at all: asked for two on an empty tree, does it say it used them? */
async function kernelHasWorkers(): Promise<boolean> {
  const empty = mkdtempSync(join(tmpdir(), 'loom-bench-empty-'));
  try {
    return (await child<IndexRun>('cold-index.ts', [empty, '', '--workers', '2'])).workers !== null;
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
}

/**
 * Reads every transcript once, untimed, so that the baseline, measured first in each run, does not
 * alone pay for bytes the page cache has not got yet (a corpus generated hours ago, or the other
 * corpus read since): every figure of the row then reads from memory.
 */
function warmPageCache(root: string): void {
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.jsonl')) readFileSync(join(entry.parentPath, entry.name));
  }
}

/** One row: every figure of one run over one corpus. */
async function measureRun(
  run: number,
  root: string,
  candidates: string,
  hasWorkers: boolean,
): Promise<{ row: string; bytes: number; files: number; importsMs: number; cpu: string }> {
  warmPageCache(root);
  const load = f(loadavg()[0], 2);
  // the baseline before and after the cold indexes, each ratio against their mean: this
  // machine's speed drifts from one minute to the next, and a baseline on one side only
  // carries that drift into every ratio of the row
  const before = mbps(await child<ParseRun>('parse-baseline.ts', [root]));
  const cold = await child<IndexRun>('cold-index.ts', [root, '']);
  // a run asking for workers means nothing until the kernel has them (cold-index.ts)
  const byWorkerCount: (IndexRun | null)[] = [];
  for (const n of workerCounts) byWorkerCount.push(n === 0 || hasWorkers ? await child<IndexRun>('cold-index.ts', [root, '', '--workers', String(n)]) : null);
  const after = mbps(await child<ParseRun>('parse-baseline.ts', [root]));
  const baseline = (before + after) / 2;
  const ratio = (r: IndexRun | null) => (r === null ? 'n/a' : `${f(mbps(r))} (${f(mbps(r) / baseline, 2)})`);
  const first = await child<FirstScreen>('first-sessions.ts', [root, candidates]);
  const stateDir = mkdtempSync(join(tmpdir(), 'loom-bench-state-'));
  const cache = join(stateDir, 'index-cache.json');
  await child<IndexRun>('cold-index.ts', [root, cache]);
  const warm = await child<IndexRun>('cold-index.ts', [root, cache]);
  rmSync(stateDir, { recursive: true, force: true });
  const latencies = await measureLatency(Number(values.appends), 20);
  const p50 = median(latencies);
  const p99 = pct(latencies, 99);
  const cells = [
    `${run} (load ${load})`,
    `${f(before)} / ${f(after)}`,
    ratio(cold),
    ...byWorkerCount.map(ratio),
    [cold.maxRssMB, first.peakRssMB, first.searchPeakRssMB].map((mb) => (mb === null ? 'n/a' : f(mb))).join(' / '),
    `${seconds(first.listedMs)} / ${seconds(first.firstMs)}${first.sessions < 50 ? ` (${first.sessions} sessions)` : ''} (link ${seconds(first.linkMs)}); done ${seconds(first.doneMs)}`,
    `${seconds(warm.ms)} (${seconds(warm.ms - warm.importsMs)} after imports), ${warm.fromCache}/${warm.files} from cache`,
    `${f(p50, 1)} / ${f(p99, 1)}${p50 > 10 || p99 > 50 ? ' (over 10 / 50)' : ''}`,
  ];
  const cpu = [cold, ...byWorkerCount].map((r) => (r === null ? 'n/a' : seconds(r.cpuMs))).join(' / ');
  return { row: `| ${cells.join(' | ')} |`, bytes: cold.bytes, files: cold.files, importsMs: cold.importsMs, cpu };
}

// `loom` compiles itself when its sources changed: done here, so that no row's first screen pays for it
execFileSync(process.execPath, [LOOM, '--version']);
const hasWorkers = await kernelHasWorkers();
for (const corpus of corpora) {
  const root = corpus === 'synthetic' ? await ensureCorpus(bytes, Number(values.files)) : await ensureRealCorpus(bytes);
  const candidates = join(mkdtempSync(join(tmpdir(), 'loom-bench-newest-')), 'candidates.json');
  writeFileSync(candidates, JSON.stringify(await newestSessionKeys(root, FIRST_SCREEN_CANDIDATES)));
  const name = corpus === 'synthetic' ? 'synthetic corpus (demo/ generator)' : 'real-transcript corpus (the fixtures copied, ids rewritten)';
  console.log(`\n${name}: ${root}\nat the start: ${machine()}`);
  const rows: string[] = [];
  const imports: string[] = [];
  const cpus: string[] = [];
  let size = '';
  for (let run = 1; run <= runs; run++) {
    const measured = await measureRun(run, root, candidates, hasWorkers);
    rows.push(measured.row);
    imports.push(seconds(measured.importsMs));
    cpus.push(measured.cpu);
    size = `${f(measured.bytes / 1024 / 1024)} MB in ${measured.files} files`;
    console.log(measured.row);
  }
  rmSync(join(candidates, '..'), { recursive: true, force: true });
  console.log(`\n${name}, ${size}; at the end: ${machine()}`);
  console.log(
    `\n| run | read + split + JSON.parse MB/s, before / after | cold index MB/s, default (÷ their mean) | ${workerCounts.map((n) => `${workersLabel(n)} MB/s (÷)`).join(' | ')} | peak RSS MB: index / loom up / after search | 50 newest sessions listed / with their final names | warm restart | append → subscriber p50 / p99 ms |`,
  );
  console.log(`|---|---:|---:|${workerCounts.map(() => '---:|').join('')}---:|---|---|---|`);
  for (const row of rows) console.log(row);
  console.log(`\nOf each default cold index, the time before indexing began (node and the bundle's imports): ${imports.join(', ')}.`);
  // on few cores the default's wall time follows its CPU time (docs/performance.md, "What the second core already carries")
  console.log(`Of each cold index, the CPU time of all its threads, default / ${workerCounts.map(workersLabel).join(' / ')}: ${cpus.join('; ')}.`);
}
