import { appendFileSync } from 'node:fs';
import { basename } from 'node:path';
import { LocalSource } from '../../spoke/source';
import { inotifyWatches } from '../helpers/inotify';
import { transcriptLine } from '../helpers/transcript-tree';

// Child process: the kernel's LocalSource following a projects tree of many files. Reports the
// inotify watches it holds, the time from start to its first index done, its RSS, and how long
// an append to a random file takes to reach the source (its change callback), as JSON.

const [root, appends, ...files] = process.argv.slice(2);
let heard: (keys: string[]) => void = () => {};
const source = new LocalSource({ projectsRoot: root, host: 'bench', onChange: (keys) => heard(keys) });
const started = performance.now();
await source.start();
const readyMs = performance.now() - started;
const watches = inotifyWatches();
const rssMB = process.memoryUsage().rss / 2 ** 20;

/** an append not seen by then is counted as missed, not waited for */
const MISSED_AFTER_MS = 5000;
const latencies: number[] = [];
let missed = 0;
for (let i = 0; i < Number(appends); i++) {
  const file = files[Math.floor(Math.random() * files.length)];
  // a subagent's lines belong to its own session, named by its file
  const session = basename(file, '.jsonl');
  const seen = new Promise<void>((resolve) => {
    heard = (keys) => {
      if (keys.some((k) => k.endsWith(session))) resolve();
    };
  });
  const sent = performance.now();
  appendFileSync(file, transcriptLine(session, `${session}-n${i}`, null, 'user', `append ${i}`));
  const timer = setTimeout(() => heard([session]), MISSED_AFTER_MS);
  await seen;
  clearTimeout(timer);
  const ms = performance.now() - sent;
  if (ms >= MISSED_AFTER_MS) missed++;
  else latencies.push(ms);
  await new Promise((r) => setTimeout(r, 10));
}
await source.stop();
console.log(JSON.stringify({ watches, readyMs, rssMB, maxRssMB: process.resourceUsage().maxRSS / 1024, latencies, missed }));
