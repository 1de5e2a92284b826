import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser, type TestPage } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, toolResult, toolUse } from '../helpers/records';
import { askPermission, installHooks, removeHookedDir } from '../helpers/stand-in-claude';

// The dashboard on a phone, 390×844 in Chromium: no page scrolls sideways, the session list is a
// drawer, a blocked card is answered with a thumb, and the app can be installed.

const WIDTH = 390;
const HEIGHT = 844;
/** what a thumb needs, in CSS pixels */
const THUMB = 44;

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;
let transcript: string;
const claudeDir = () => join(root, 'claude');

/** A session whose every block is wider than a phone: unbroken text, a long code line, a wide table, tools with long inputs and results. */
function wideSession(): unknown[] {
  const unbroken = 'x'.repeat(400);
  const code = `\`\`\`ts\nconst line = ${JSON.stringify('y'.repeat(300))};\n\`\`\``;
  const cells = (text: (i: number) => string) => `| ${Array.from({ length: 12 }, (_, i) => text(i)).join(' | ')} |`;
  const table = [cells((i) => `column ${i}`), cells(() => '---'), cells((i) => `value_${i}_${'z'.repeat(20)}`)].join('\n');
  return [
    prompt('p1', null, `look at ${unbroken} and https://example.com/${'a'.repeat(200)}`),
    assistant('a1', 'p1', [say(`Here: ${unbroken}\n\n${code}\n\n${table}\n\n\`inline_${'q'.repeat(200)}\``)]),
    assistant('a2', 'a1', [toolUse('t1', 'Bash', { command: `grep -rn ${'w'.repeat(300)} /src` })], 'tool_use'),
    toolResult('r1', 'a2', 't1', `${'k'.repeat(500)}\n\tindented ${'m'.repeat(300)}`),
    assistant(
      'a3',
      'r1',
      [toolUse('t2', 'Edit', { file_path: `/home/dev/demo/${'d'.repeat(150)}.ts`, old_string: `a${'1'.repeat(200)}`, new_string: `a${'2'.repeat(200)}` })],
      'tool_use',
    ),
    toolResult('r2', 'a3', 't2', 'ok'),
    assistant('a4', 'r2', [toolUse('t3', 'Read', { file_path: `/home/dev/demo/${'e'.repeat(150)}.ts` })], 'tool_use'),
    toolResult('r3', 'a4', 't3', `     1\t${'r'.repeat(400)}\n     2\tshort`),
    assistant('a5', 'r3', [say('Done.')], 'end_turn'),
  ];
}

beforeAll(async () => {
  browser = await startBrowser();
  root = mkdtempSync(join(tmpdir(), 'loom-phone-e2e-'));
  const project = join(root, 'projects', '-home-dev-demo');
  mkdirSync(project, { recursive: true });
  transcript = join(project, 's1.jsonl');
  writeFileSync(transcript, line(prompt('p1', null, 'tidy the config')));
  writeFileSync(join(project, 'wide.jsonl'), wideSession().map(line).join(''));
  installHooks(claudeDir(), join(root, 'state'));
  kernel = await startTestKernel(join(root, 'projects'), { stateDir: join(root, 'state') });
}, BROWSER_START_TIMEOUT_MS + 30_000);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  removeHookedDir(root);
});

/** a phone's page at `path`, the session list loaded */
async function phone(path: string): Promise<TestPage> {
  const opened = await browser.open(kernel, path, { phone: true });
  opened.page.setDefaultTimeout(10_000);
  return opened;
}

/** The boxes that scroll sideways, as `tag.class`: only a code block, a table's box (Markdown's, the usage view's) or the audit log's may. */
const sidewaysScrollers = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('*')]
      .filter((el) => ['auto', 'scroll'].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].join('.')}`),
  );

const ALLOWED_SIDEWAYS = /^(pre\.|div\.md-table|div\.audit-log-box|div\.usage-table-scroll)/;

/** Neither the page nor any box in it but a code block or a table scrolls sideways; returns the boxes that do. */
async function expectNoSidewaysScroll(page: Page, where: string): Promise<string[]> {
  const [scrollWidth, innerWidth] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  expect(innerWidth, where).toBe(WIDTH);
  expect(scrollWidth, where).toBeLessThanOrEqual(innerWidth);
  const scrollers = await sidewaysScrollers(page);
  expect(
    scrollers.filter((s) => !ALLOWED_SIDEWAYS.test(s)),
    where,
  ).toEqual([]);
  return scrollers;
}

/** a tap target's box: a thumb's height, and inside the screen's width */
async function expectThumbSized(target: Locator, what: string): Promise<void> {
  await target.scrollIntoViewIfNeeded();
  const box = (await target.boundingBox())!;
  expect(box.height, what).toBeGreaterThanOrEqual(THUMB);
  expect(box.x, what).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, what).toBeLessThanOrEqual(WIDTH);
  expect(box.y + box.height, what).toBeLessThanOrEqual(HEIGHT);
}

/** until the drawer is closed (a closed dialog is in the page, hidden) */
/**
 * The drawer closed, and the page told: Escape closes a <dialog> at once, and its close event
 * (which the button's aria-expanded follows) comes a task later.
 */
const drawerClosed = async (page: Page) => {
  await page.waitForSelector('dialog.drawer:not([open])', { state: 'attached' });
  await page.waitForSelector('.drawer-button[aria-expanded="false"]', { state: 'attached' });
};

describe('the session drawer', () => {
  it('opens from the top bar, lists the sessions with the pages, and closes on Escape and on a tap outside', async () => {
    const { page, errors, context } = await phone('/');
    const button = page.getByRole('button', { name: 'Sessions', exact: true });
    await expectThumbSized(button, 'the drawer button');
    // no list beside the page, and the pages' links are not in the bar
    expect(await page.locator('.tabs').isVisible()).toBe(false);
    expect(await page.locator('.top > a').allTextContents()).toEqual(['Loom']);
    expect(await button.getAttribute('aria-expanded')).toBe('false');

    await button.tap();
    await page.waitForSelector('dialog.drawer[open] .tab');
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('.drawer .tab .host-name').allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining('tidy the config')]));
    expect(await page.locator('.drawer .tab').count()).toBe(2);
    expect(await page.locator('.drawer-pages a').allTextContents()).toEqual(['Feed', 'Timeline', 'Usage', 'Settings', 'GraphiQL']);
    // focus went into the drawer, and the drawer fits the screen
    expect(await page.evaluate(() => document.activeElement?.closest('dialog.drawer') !== null)).toBe(true);
    // it slides in: measured where it comes to rest
    await page.waitForFunction(() => document.querySelector('dialog.drawer')?.getAnimations().length === 0);
    const drawer = (await page.locator('dialog.drawer').boundingBox())!;
    expect(drawer.x).toBe(0);
    expect(drawer.width).toBeLessThan(WIDTH);
    await expectNoSidewaysScroll(page, 'the drawer open');

    await page.keyboard.press('Escape');
    await drawerClosed(page);
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.classList.contains('drawer-button'))).toBe(true);

    await button.tap();
    await page.waitForSelector('dialog.drawer[open]');
    // a tap right of the drawer, on the dimmed page
    await page.touchscreen.tap(WIDTH - 10, HEIGHT / 2);
    await drawerClosed(page);
    expect(page.url()).toBe(new URL('/', kernel.url).toString());
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a chosen session full width and closes; its composer is a thumb’s size', async () => {
    const { page, errors, context } = await phone('/');
    await page.getByRole('button', { name: 'Sessions', exact: true }).tap();
    await page.locator('dialog.drawer[open] .tab', { hasText: 'look at' }).tap();
    await page.waitForURL(/\/s\/test%3Awide$|\/s\/test:wide$/);
    await drawerClosed(page);
    expect(await page.getByRole('button', { name: 'Sessions', exact: true }).getAttribute('aria-expanded')).toBe('false');
    await page.waitForSelector('[data-sequence]');
    const chat = (await page.locator('.chat').boundingBox())!;
    expect(chat.x).toBe(0);
    expect(chat.width).toBe(WIDTH);
    expect(await page.locator('.toc').isVisible()).toBe(false);
    await expectThumbSized(page.getByRole('textbox', { name: 'Prompt' }), 'the prompt box');
    await expectThumbSized(page.getByRole('button', { name: 'Resume', exact: true }), 'the send button');

    // choosing the session already shown closes the drawer too
    await page.getByRole('button', { name: 'Sessions', exact: true }).tap();
    await page.locator('dialog.drawer[open] .tab.active').tap();
    await drawerClosed(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('a blocked card on a phone', () => {
  it('comes first in the feed, with Allow and Deny a thumb can reach; Allow lands, and its audit row fits the settings page', async () => {
    const { page, errors, context } = await phone('/');
    await page.waitForSelector('[data-column="blocked"] .feed-empty');
    const { result } = askPermission(claudeDir(), transcript, { tool: 'Bash', input: { command: `make release TARGET=${'t'.repeat(300)}` } });
    const card = page.locator('[data-column="blocked"] .request');
    await card.waitFor();
    expect(await page.$$eval('.feed-column', (columns) => columns.map((c) => c.getAttribute('data-column')))).toEqual(['blocked', 'working', 'completed']);
    await expectNoSidewaysScroll(page, 'the feed with a blocked card');
    const allow = card.getByRole('button', { name: 'Allow', exact: true });
    await expectThumbSized(allow, 'Allow');
    await expectThumbSized(card.getByRole('button', { name: 'Deny…', exact: true }), 'Deny');
    await allow.tap();
    expect((await result).decision).toEqual({ behavior: 'allow' });
    await page.waitForSelector('[data-column="blocked"] .feed-empty');
    // the answer's row in the audit log fits the settings page too
    await page.getByRole('button', { name: 'Sessions', exact: true }).tap();
    await page.locator('.drawer-pages').getByRole('link', { name: 'Settings' }).tap();
    await page.waitForSelector('.audit-log tbody tr');
    await expectNoSidewaysScroll(page, 'the settings with an answer in the audit log');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('no page scrolls sideways at 390×844', () => {
  // [what, route, what shows it is drawn, what to tap first (every match)]
  const routes: [string, string, string, string | null][] = [
    ['the feed', '/', '[data-column="completed"] [data-goal]', null],
    ['a chat with long code, tool blocks (all opened) and a wide table', '/s/test:wide', '[data-sequence]', '.tool > summary'],
    ['a short chat', '/s/test:s1', '[data-sequence]', null],
    ['the timeline', '/timeline', '.tl', null],
    ['the usage view', '/usage?range=all', '.usage-chart svg', null],
    ['the settings', '/settings', '.settings dl', null],
    ['the feed with the network popover open', '/', '.net-panel', '.net-button'],
  ];

  it.each(routes)('%s (%s)', async (_, route, ready, tap) => {
    const { page, errors, context } = await phone(route);
    if (tap) {
      await page.waitForSelector(tap);
      for (const target of await page.locator(tap).all()) await target.tap();
    }
    await page.waitForSelector(ready);
    await page.waitForLoadState('networkidle');
    const scrollers = await expectNoSidewaysScroll(page, route);
    // the wide session's blocks are wider than the screen: they scroll in their own boxes
    if (route === '/s/test:wide') expect(scrollers).toEqual(expect.arrayContaining(['pre.', 'div.md-table']));
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the installable app', () => {
  it('links a manifest the browser reads without the token, with its icons', async () => {
    const { page, errors, context } = await phone('/');
    await page.waitForSelector('.feed-column');
    expect(await page.getAttribute('link[rel="manifest"]', 'href')).toBe('/manifest.webmanifest');
    expect(await page.getAttribute('link[rel="apple-touch-icon"]', 'href')).toBe('/apple-touch-icon.png');
    expect(await page.$$eval('meta[name="theme-color"]', (metas) => metas.map((m) => m.getAttribute('content')))).toHaveLength(2);
    // Chromium's own reading of the manifest: what it fetched (as it does, without cookies) and parsed
    const cdp = await context.newCDPSession(page);
    const read = await cdp.send('Page.getAppManifest');
    expect(read.errors).toEqual([]);
    expect(JSON.parse(read.data!)).toMatchObject({ name: 'Loom', start_url: '/', display: 'standalone' });
    // each file, fetched as a browser fetches a manifest: with no cookie
    const statuses = await page.evaluate(() =>
      Promise.all(
        ['/manifest.webmanifest', '/icon-192.png', '/icon-512.png', '/icon-maskable-512.png', '/apple-touch-icon.png', '/settings'].map(
          async (path) => `${path} ${(await fetch(path, { credentials: 'omit' })).status}`,
        ),
      ),
    );
    expect(statuses).toEqual([
      '/manifest.webmanifest 200',
      '/icon-192.png 200',
      '/icon-512.png 200',
      '/icon-maskable-512.png 200',
      '/apple-touch-icon.png 200',
      '/settings 401',
    ]);
    // the one error is the browser's note of that 401
    expect(errors).toEqual([expect.stringContaining('401')]);
    await context.close();
  });
});

describe('a wide screen', () => {
  it('keeps the tab strip beside the page at 1440×900, with the pages in the top bar and no drawer', async () => {
    const { page, errors, context } = await browser.open(kernel, '/');
    await page.waitForSelector('.tabs .tab');
    const tabs = (await page.locator('nav.tabs').boundingBox())!;
    expect([tabs.x, tabs.width]).toEqual([0, 300]);
    expect(await page.locator('.drawer-button').count()).toBe(0);
    expect(await page.locator('dialog.drawer').count()).toBe(0);
    expect(await page.locator('.top > a').allTextContents()).toEqual(['Loom', 'Feed', 'Timeline', 'Usage', 'Settings', 'GraphiQL']);
    expect(await page.$$eval('.feed-column', (columns) => columns.map((c) => c.getAttribute('data-column')))).toEqual(['working', 'blocked', 'completed']);
    expect(errors).toEqual([]);
    await context.close();
  });
});
