import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DemoHookStates, writeDemoTree } from '../../demo';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';

// axe-core, the checker browsers' own accessibility audits build on, over each main route of the
// dashboard as a new user first sees it (the demo: blocked sessions, live chips, tool calls), in
// both themes. A serious or critical finding fails: missing names, contrast, roles misused.

const AXE_SOURCE: string = createRequire(import.meta.url)('axe-core').source;
const GRAVE = new Set(['serious', 'critical']);

let browser: TestBrowser;
let dir: string;
let kernel: TestKernel;
let sessionId: string;
beforeAll(async () => {
  browser = await startBrowser();
  dir = mkdtempSync(join(tmpdir(), 'loom-a11y-'));
  const tree = await writeDemoTree(join(dir, 'projects'));
  await new DemoHookStates(join(dir, 'state')).writeTree(tree, Date.now());
  kernel = await startTestKernel(join(dir, 'projects'), { stateDir: join(dir, 'state'), search: true });
  const { data } = await kernel.gql(graphql(`query A11ySessions { sessions(first: 1) { nodes { id } } }`));
  sessionId = data.sessions.nodes[0].id;
  const created = await kernel.gql(graphql(`mutation A11yTag { createTag(name: "review", color: "#2d62cf") { tag { id } } }`));
  await kernel.gql(graphql(`mutation A11yTagged($tag: ID!, $session: ID!) { tagSession(tagId: $tag, sessionId: $session) { seq } }`), {
    tag: created.data.createTag.tag!.id,
    session: sessionId,
  });
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** the serious and critical findings on the page as it is, one line each: rule, impact, where */
async function graveFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run: (o: object) => Promise<AxeResults> } }).axe.run({ resultTypes: ['violations'] }),
  );
  return results.violations
    .filter((v) => GRAVE.has(v.impact ?? ''))
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')}: ${n.failureSummary?.split('\n')[1]?.trim() ?? v.help}`));
}

const ROUTES: { name: string; path: () => string; ready: string; open?: (page: Page) => Promise<void> }[] = [
  { name: 'the feed', path: () => '/', ready: '.goal-card' },
  {
    name: 'a chat with a tool call opened',
    path: () => `/s/${sessionId}`,
    ready: '.tool',
    open: async (page) => {
      await page.locator('.tool summary').first().click();
      await page.waitForSelector('.tool-body');
    },
  },
  {
    name: 'the feed with the network panel open',
    path: () => '/',
    ready: '.goal-card',
    open: async (page) => {
      await page.click('.net-button');
      await page.waitForSelector('.net-panel');
    },
  },
  {
    name: 'the feed with search results open',
    path: () => '/',
    ready: '.goal-card',
    open: async (page) => {
      await page.keyboard.press('/');
      await page.keyboard.type('tests');
      await page.waitForSelector('[role="option"] mark');
    },
  },
  { name: 'the timeline', path: () => '/timeline', ready: '.tl-lane' },
  { name: 'the usage view', path: () => '/usage?range=all', ready: '.usage-chart svg' },
  { name: 'the settings', path: () => '/settings', ready: 'main h1, main h2' },
  {
    name: "the settings' tags, one being deleted, with the tab strip's tags list open",
    path: () => '/settings',
    ready: '.tag-row',
    open: async (page) => {
      await page.locator('.lens-tags summary').click();
      await page.getByRole('button', { name: 'Delete review…' }).click();
      await page.waitForSelector('.tag-confirm');
    },
  },
];

describe.each(['light', 'dark'] as const)('accessibility in the %s theme', (colorScheme) => {
  it.each(ROUTES)('finds nothing serious on $name', { timeout: 60_000 }, async ({ path, ready, open }) => {
    const { page, errors } = await browser.open(kernel, path(), { colorScheme });
    await page.waitForSelector(ready);
    await open?.(page);
    expect(await graveFindings(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
