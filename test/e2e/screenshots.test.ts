import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';

// Each pane at 1440×900 over the fixtures. Each shot waits for its pane's own content, so a pane
// that fails to draw fails here too. A test run saves them in a temp dir; `npm run screenshots`
// saves them over the README's (docs/screenshots/), so only a deliberate run changes the docs.

const OUT = process.env.LOOM_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'loom-screenshots-'));
const SPOTTER = 'test:4d5611e5-241a-462a-8d15-5122611a9569';

let kernel: TestKernel;
let browser: TestBrowser;
beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  [kernel, browser] = await Promise.all([startTestKernel(FIXTURES), startBrowser()]);
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
});

// [name, route, what shows the pane is drawn, colour scheme, a button to press first]
const shots: [string, string, string, 'light' | 'dark', string | null][] = [
  ['feed', '/', '[data-goal]', 'light', null],
  ['chat', `/s/${encodeURIComponent(SPOTTER)}`, '[data-sequence]', 'light', null],
  ['timeline', '/timeline', '[data-turn]', 'light', 'all'],
  ['settings', '/settings', '.settings dl', 'light', null],
  ['chat-dark', `/s/${encodeURIComponent(SPOTTER)}`, '[data-sequence]', 'dark', null],
];

it.each(shots)('draws the %s pane and saves its screenshot', async (name, route, ready, colorScheme, press) => {
  const { page, errors, context } = await browser.open(kernel, route, { colorScheme });
  await page.waitForSelector('.tab');
  await page.waitForSelector(ready);
  if (press) {
    await page.getByRole('button', { name: press, exact: true }).click();
    await page.waitForSelector(ready);
  }
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  expect(errors).toEqual([]);
  await context.close();
});
