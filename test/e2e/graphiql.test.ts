import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { until } from '../helpers/wait';

// GraphiQL at /graphql, in Chromium under its own Content-Security-Policy: it opens on Loom's
// example tabs, each one runs (the subscription over the page's WebSocket), and its header
// leads back to the dashboard.

let browser: TestBrowser;
let kernel: TestKernel;
let root: string;
const transcript = () => join(root, '-home-dev-demo', 'g1.jsonl');

beforeAll(async () => {
  browser = await startBrowser();
  root = mkdtempSync(join(tmpdir(), 'loom-graphiql-'));
  mkdirSync(join(root, '-home-dev-demo'));
  writeFileSync(transcript(), line(prompt('p1', null, 'list the files')));
  kernel = await startTestKernel(root);
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await kernel?.close();
  await browser?.close();
  rmSync(root, { recursive: true, force: true });
});

async function openTab(page: Page, title: string): Promise<void> {
  await page.getByRole('button', { name: title, exact: true }).click();
  await page.locator('.graphiql-tab-active').getByText(title, { exact: true }).waitFor();
}

/**
 * Runs the active tab, once `started` shows that it ran. Just after a tab switch GraphiQL may not
 * yet know the new tab's operation, and a run then names the last tab's ("Cannot infer operation
 * …"): that run is made again.
 */
async function execute(page: Page, started: Locator): Promise<void> {
  const refused = page.locator('.graphiql-response').getByText('Cannot infer operation');
  for (let attempt = 1; ; attempt++) {
    await page.locator('.graphiql-execute-button').click();
    await started.or(refused).first().waitFor();
    if ((await started.count()) > 0) return;
    if (attempt === 5) throw new Error("GraphiQL ran another tab's operation five times");
  }
}

/** the response pane's text (its spaces, which the editor draws as no-break ones, made plain), once it holds `expected` */
async function response(page: Page, expected: string): Promise<string> {
  const pane = page.locator('.graphiql-response');
  await pane.getByText(expected).first().waitFor();
  return ((await pane.textContent()) ?? '').replace(/\s+/g, ' ');
}

describe('GraphiQL', () => {
  it('opens on the example tabs, runs each, and links back to the dashboard', async () => {
    const { page, errors } = await browser.open(kernel, '/graphql');
    const tabs = page.locator('.graphiql-tab-button');
    await tabs.first().waitFor({ timeout: 15_000 });
    expect(await tabs.allTextContents()).toEqual(['Sessions', 'SessionChanges', 'NeedsYou']);
    expect(await page.title()).toBe('Loom GraphiQL');

    await page.locator('.graphiql-execute-button').click();
    expect(await response(page, '"totalCount": 1')).toContain('"id": "test:g1"');

    await openTab(page, 'SessionChanges');
    await execute(page, page.getByRole('button', { name: 'Stop query (Ctrl-Enter)' }));
    // nothing says when the kernel has the subscription: write a line every half second until one shows
    let written = 0;
    await until(async () => {
      if (Date.now() - written > 500) {
        written = Date.now();
        appendFileSync(transcript(), line(assistant(`a${written}`, 'p1', [say('here they are')], 'end_turn')));
      }
      return page.locator('.graphiql-response').getByText('"UPDATED"').count();
    }, 'the subscription to show a change');
    expect(await response(page, '"kind": "UPDATED"')).toContain('"sessionId": "test:g1"');
    await page.getByRole('button', { name: 'Stop query (Ctrl-Enter)' }).click();
    await page.getByRole('button', { name: 'Execute query (Ctrl-Enter)' }).waitFor();

    await openTab(page, 'NeedsYou');
    await execute(page, page.locator('.graphiql-response').getByText('"blocked": []'));

    await page.getByRole('link', { name: '← Loom dashboard' }).click();
    await page.waitForURL(kernel.url);
    await page.locator('.net-button').waitFor();
    expect(errors).toEqual([]);
  }, 60_000);
});
