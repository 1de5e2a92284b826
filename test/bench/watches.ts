import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeTranscriptTree } from '../helpers/transcript-tree';

// Following a history of many files: a LocalSource (in a child process of its own) on a tree of
// 10,000 tiny transcripts across 300 project dirs, written over 90 days (one session in ten
// with a subagent, in its session's folder). Prints one table row: the inotify watches it
// holds next to the tree's files and directories, time to its first index, RSS, and append →
// read latency over appends to random files. `npm run bench:watches [files] [appends]`.

const files = Number(process.argv[2] ?? 10_000);
const appends = Number(process.argv[3] ?? 300);
const root = join(mkdtempSync(join(tmpdir(), 'loom-watches-')), 'projects');
const tree = writeTranscriptTree(root, { files, projects: 300, subagentEvery: 10, spanDays: 90 });
try {
  const out = execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'watches-source.ts'), root, String(appends), ...tree.files], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
    watches: number | null;
    readyMs: number;
    rssMB: number;
    maxRssMB: number;
    latencies: number[];
    missed: number;
  };
  const sorted = r.latencies.sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))].toFixed(1);
  console.log('| files | dirs | inotify watches | start → indexed | RSS (peak) | append → read p50 / p99 |');
  console.log('|---|---|---|---|---|---|');
  console.log(
    `| ${tree.files.length} | ${tree.dirs.length} | ${r.watches ?? 'n/a (not Linux)'} | ${(r.readyMs / 1000).toFixed(2)} s | ${r.rssMB.toFixed(0)} MB (${r.maxRssMB.toFixed(0)} MB) | ${pct(50)} / ${pct(99)} ms over ${sorted.length}${r.missed ? `, ${r.missed} never seen` : ''} |`,
  );
} finally {
  rmSync(join(root, '..'), { recursive: true, force: true });
}
