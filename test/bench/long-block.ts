import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startKernel } from '../../server/kernel';
import { CHROMIUM } from '../helpers/browser';
import { buildLog } from '../helpers/build-log';
import { assistant, line, prompt, say } from '../helpers/records';

// `npx tsx test/bench/long-block.ts --mib 10 --runs 3`: the long-block figures in
// docs/performance.md. A session whose answer is one text block of that many MiB (a build log),
// opened in a fresh Chromium context each run: how long until the chat draws it (cut to its
// first characters), then until "show all" draws the whole, and the longest task that held the
// tab's main thread in each (PerformanceObserver "longtask").

const { values } = parseArgs({ options: { mib: { type: 'string', default: '10' }, runs: { type: 'string', default: '3' } } });
const size = Number(values.mib) * 2 ** 20;
const root = join(import.meta.dirname, '..', '..');

execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'], {
  cwd: root,
  env: { ...process.env, NODE_ENV: 'production' },
  stdio: 'inherit',
});

const projects = mkdtempSync(join(tmpdir(), 'loom-bench-long-'));
mkdirSync(join(projects, '-home-dev-demo'));
writeFileSync(
  join(projects, '-home-dev-demo', 'huge.jsonl'),
  [prompt('p1', null, 'paste the build log'), assistant('a1', 'p1', [say(buildLog(size, 'the end of the log'))], 'end_turn')].map(line).join(''),
);
const stateDir = mkdtempSync(join(tmpdir(), 'loom-bench-long-state-'));
const kernel = await startKernel({ projectsRoot: projects, stateDir, port: 0, hostName: 'bench' });
await kernel.indexed;
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });

// strings, not functions: tsx would wrap a function with helpers the page does not have
const WATCH_TASKS = `window.__tasks = []; new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__tasks.push(e.duration); }).observe({ type: 'longtask' });`;
const LONGEST_TASK = `Math.round(Math.max(0, ...window.__tasks.splice(0)))`;
try {
  for (let run = 1; run <= Number(values.runs); run++) {
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.addInitScript(WATCH_TASKS);
    const page = await context.newPage();
    await page.goto(`${kernel.url}s/bench:huge?token=${kernel.access.token()}`);
    await page.waitForSelector('.prose[data-state="cut"]', { timeout: 120_000 });
    const opened = await page.evaluate<number>('performance.now()');
    const openTask = await page.evaluate<number>(LONGEST_TASK);
    const clicked = await page.evaluate<number>('performance.now()');
    await page.click('.show-all');
    await page.waitForSelector('.prose[data-state="whole"]', { timeout: 120_000 });
    const whole = (await page.evaluate<number>('performance.now()')) - clicked;
    await page.waitForTimeout(500);
    const wholeTask = await page.evaluate<number>(LONGEST_TASK);
    console.log(
      `run ${run}: drawn cut ${opened.toFixed(0)} ms after navigation start (longest task ${openTask} ms); ` +
        `whole ${whole.toFixed(0)} ms after "show all" (longest task ${wholeTask} ms)`,
    );
    await context.close();
  }
} finally {
  await browser.close();
  await kernel.close();
  rmSync(projects, { recursive: true, force: true });
  rmSync(stateDir, { recursive: true, force: true });
}
