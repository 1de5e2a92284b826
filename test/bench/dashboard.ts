import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startKernel } from '../../server/kernel';
import { CHROMIUM } from '../helpers/browser';
import { ensureCorpus } from './corpus';

// `npx tsx test/bench/dashboard.ts --sessions 2000 --runs 5`: the dashboard's figures in
// docs/performance.md. The bundle's size gzipped (the first load apart from what loads on demand), and the first render of the tab strip and the
// feed with that many sessions: from the start of navigation until every tab is counted and
// the feed's columns are drawn, in a fresh browser context each run (nothing cached).

const { values } = parseArgs({ options: { sessions: { type: 'string', default: '2000' }, runs: { type: 'string', default: '5' } } });
const sessions = Number(values.sessions);
const root = join(import.meta.dirname, '..', '..');

execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'production' },
  stdio: 'inherit',
});
// The first load is what index.html names (the entry script, its stylesheet, modules it preloads);
// everything else under assets/ loads on demand (the diff view, the usage view's charts).
const dist = join(root, 'web', 'dist');
const firstLoad = new Set([...readFileSync(join(dist, 'index.html'), 'utf8').matchAll(/(?:src|href)="\/assets\/([^"]+)"/g)].map((m) => m[1]));
const weight = { first: { raw: 0, gzip: 0 }, lazy: { raw: 0, gzip: 0 } };
for (const name of readdirSync(join(dist, 'assets'))) {
  const body = readFileSync(join(dist, 'assets', name));
  const part = firstLoad.has(name) ? weight.first : weight.lazy;
  part.raw += body.length;
  part.gzip += gzipSync(body, { level: 9 }).length;
}
const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
console.log(`bundle, first load: ${kB(weight.first.raw)}, ${kB(weight.first.gzip)} gzip (${[...firstLoad].join(', ')})`);
console.log(`bundle, loaded on demand: ${kB(weight.lazy.raw)}, ${kB(weight.lazy.gzip)} gzip`);

// about 10 kB a session: the list is what is measured, not the transcripts
const projects = await ensureCorpus(sessions * 10 * 1024, sessions);
const stateDir = mkdtempSync(join(tmpdir(), 'loom-bench-web-'));
const kernel = await startKernel({ projectsRoot: projects, stateDir, port: 0, hostName: 'bench' });
await kernel.indexed;
const total = kernel.source.kernel().sessionCount;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
const times: number[] = [];
try {
  for (let run = 1; run <= Number(values.runs); run++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${kernel.url}?token=${kernel.access.token()}`);
    // a string, not a function: tsx would wrap a function with helpers the page does not have
    const ms = await page.evaluate<number>(`new Promise((resolve) => {
      const check = () => {
        const counted = document.querySelector('.tabs-count')?.textContent === '${total} of ${total} sessions';
        const feed = document.querySelectorAll('[data-column]').length === 3;
        if (counted && feed) resolve(performance.now());
        else requestAnimationFrame(check);
      };
      check();
    })`);
    times.push(ms);
    console.log(`run ${run}: ${total} sessions, tab strip and feed drawn ${ms.toFixed(0)} ms after navigation start`);
    await context.close();
  }
} finally {
  await browser.close();
  await kernel.close();
  rmSync(stateDir, { recursive: true, force: true });
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `first render with ${total} sessions: median ${sorted[Math.floor(sorted.length / 2)].toFixed(0)} ms, min ${sorted[0].toFixed(0)}, max ${sorted[sorted.length - 1].toFixed(0)}`,
);
