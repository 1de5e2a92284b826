import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser, type TestPage } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';
import { askPermission, installHooks, removeHookedDir } from '../helpers/stand-in-claude';

// The blocked card in Chromium: what is asked, readable, answered with a click or a key, and a
// browser notification when a session starts needing its person.

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;
let transcript: string;
let opened: TestPage;
const claudeDir = () => join(root, 'claude');

interface Noted {
  title: string;
  body: string | undefined;
}

beforeAll(async () => {
  browser = await startBrowser();
  root = mkdtempSync(join(tmpdir(), 'loom-answers-e2e-'));
  const project = join(root, 'projects', '-home-dev-demo');
  mkdirSync(project, { recursive: true });
  transcript = join(project, 's1.jsonl');
  writeFileSync(transcript, line(prompt('p1', null, 'tidy the config')));
  installHooks(claudeDir(), join(root, 'state'));
  kernel = await startTestKernel(join(root, 'projects'), { stateDir: join(root, 'state') });
  opened = await browser.open(kernel, '/');
  opened.page.setDefaultTimeout(10_000);
  // every notification the page raises, recorded as it is made
  await opened.context.grantPermissions(['notifications'], { origin: new URL(kernel.url).origin });
  await opened.context.addInitScript(() => {
    const Real = window.Notification;
    const noted: { title: string; body: string | undefined }[] = [];
    (window as unknown as { __noted: typeof noted }).__noted = noted;
    window.Notification = class extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        noted.push({ title, body: options?.body });
      }
    };
  });
  await opened.page.reload();
  await opened.page.waitForSelector('[data-column="blocked"] .feed-empty');
}, BROWSER_START_TIMEOUT_MS + 30_000);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  removeHookedDir(root);
});

const noted = () => opened.page.evaluate(() => (window as unknown as { __noted: Noted[] }).__noted);

describe('a blocked card', () => {
  it('shows an Edit as a diff, raises a notification, and Allow sends the session on', async () => {
    const edit = { file_path: '/home/dev/demo/config.toml', old_string: 'port = 80\nhost = "a"', new_string: 'port = 8080\nhost = "a"' };
    const { result } = askPermission(claudeDir(), transcript, { tool: 'Edit', input: edit });
    const card = opened.page.locator('[data-column="blocked"] .request');
    await card.waitFor();
    expect(await card.locator('.file-path').textContent()).toBe('/home/dev/demo/config.toml');
    expect(await card.locator('.diff-removed').textContent()).toBe('- port = 80\n');
    expect(await card.locator('.diff-added').textContent()).toBe('+ port = 8080\n');
    expect(await card.locator('.diff-same').textContent()).toBe('  host = "a"\n');
    await opened.page.waitForFunction(() => (window as unknown as { __noted: Noted[] }).__noted.length > 0);
    expect(await noted()).toEqual([{ title: 'test:tidy the config needs you', body: 'Permission: Edit needs permission' }]);

    await card.getByRole('button', { name: 'Allow', exact: true }).click();
    const ran = await result;
    expect(ran).toMatchObject({ by: 'hook', decision: { behavior: 'allow' } });
    await opened.page.waitForSelector('[data-column="blocked"] .feed-empty');
    // the card that moved on says who answered
    await opened.page.waitForSelector('[data-column="working"] .goal-answered >> text=allowed from Loom');
  });

  it('shows a Bash command with its directory, and answers with the keyboard', async () => {
    const { result } = askPermission(claudeDir(), transcript, { tool: 'Bash', input: { command: 'npm run deploy', description: 'Deploy the site' } });
    const card = opened.page.locator('[data-column="blocked"] .request');
    await card.waitFor();
    expect(await card.locator('.bash-command code').textContent()).toBe('npm run deploy');
    expect(await card.locator('.bash-description').textContent()).toBe('Deploy the site');
    expect(await card.locator('.bash-cwd').textContent()).toBe('in /home/dev/demo');
    // focus the card's first button, then deny with d, a message and Enter
    await card.getByRole('button', { name: 'Allow', exact: true }).focus();
    await opened.page.keyboard.press('d');
    await opened.page.waitForFunction(() => document.activeElement?.closest('.deny-form') !== null);
    await opened.page.keyboard.type('use the staging script');
    await opened.page.keyboard.press('Enter');
    expect((await result).decision).toEqual({ behavior: 'deny', message: 'use the staging script' });
    await opened.page.waitForSelector('[data-column="blocked"] .feed-empty');
    expect(opened.errors).toEqual([]);
  });

  it("is usable on a phone's screen: the request and its buttons fit 390 px and answer with a tap", async () => {
    const phone = await browser.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await phone.newPage();
      const url = new URL('/', kernel.url);
      url.searchParams.set('token', kernel.token);
      await page.goto(url.toString());
      const { result } = askPermission(claudeDir(), transcript, { tool: 'Bash', input: { command: 'make release' } });
      const card = page.locator('[data-column="blocked"] .request');
      await card.waitFor({ timeout: 10_000 });
      const allow = card.getByRole('button', { name: 'Allow', exact: true });
      const box = (await allow.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      expect(box.height).toBeGreaterThanOrEqual(32); // a thumb's target
      const panel = (await card.boundingBox())!;
      expect(panel.x + panel.width).toBeLessThanOrEqual(390);
      await allow.tap();
      expect((await result).decision).toEqual({ behavior: 'allow' });
    } finally {
      await phone.close();
    }
  });

  it('lists every answer in the settings page, from the audit log', async () => {
    await opened.page.goto(new URL('/settings', kernel.url).toString());
    await opened.page.waitForSelector('.audit-log tbody tr');
    const rows = await opened.page.$$eval('.audit-log tbody tr', (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)));
    expect(rows).toEqual([
      ['local', 'allowTool: Bash: allowed', 'test:s1', 'OK'],
      ['local', 'denyTool: Bash: denied: use the staging script', 'test:s1', 'OK'],
      ['local', 'allowTool: Edit: allowed', 'test:s1', 'OK'],
    ]);
  });
});
