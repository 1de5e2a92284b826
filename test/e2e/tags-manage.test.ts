import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';
import { stripShows as shows } from '../helpers/tab-strip';
import { until } from '../helpers/wait';

// Managing tags (the settings' Tags section) and saved views (the tab strip's lens), in Chromium:
// each edit checked in the kernel's own API and on the page after a reload, and a whole write
// made from tags and views that changed meanwhile refused, reported and redone.

const VIEWS = graphql(`query ManagedViews { views { seq tags { id name color memberIds } views { id name filter tagIds untagged order } } }`);
const CREATE = graphql(`mutation ManagedCreate($name: String!, $color: String!) { createTag(name: $name, color: $color) { tag { id } } }`);
const TAG = graphql(`mutation ManagedTag($tag: ID!, $session: ID!) { tagSession(tagId: $tag, sessionId: $session) { seq } }`);
const RECOLOR = graphql(`mutation ManagedRecolor($id: ID!, $color: String!) { recolorTag(id: $id, color: $color) { seq } }`);

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;

/** Four sessions, oldest first: two in /home/dev/api, one each in /home/dev/web and /home/dev/ops. */
const SESSIONS = [
  { key: 'api', text: 'add the api', cwd: '/home/dev/api' },
  { key: 'docs', text: 'write the docs', cwd: '/home/dev/web' },
  { key: 'bench', text: 'bench the loader', cwd: '/home/dev/api' },
  { key: 'zed', text: 'zip the release', cwd: '/home/dev/ops' },
];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-tags-manage-'));
  const project = join(root, '-home-dev-api');
  mkdirSync(project);
  for (const s of SESSIONS) writeFileSync(join(project, `${s.key}.jsonl`), line(prompt(`${s.key}1`, null, s.text, { cwd: s.cwd })));
  kernel = await startTestKernel(root);
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

const views = async () => (await kernel.gql(VIEWS)).data.views;
const tagNamed = async (name: string) => (await views()).tags.find((t) => t.name === name)!;

async function createTag(name: string, color: string, members: string[]): Promise<string> {
  const id = (await kernel.gql(CREATE, { name, color })).data.createTag.tag!.id;
  for (const key of members) await kernel.gql(TAG, { tag: id, session: `test:${key}` });
  return id;
}

/** Until the strip shows these sessions (by key) and group headers (`# name`). */
const stripShows = (page: Page, rows: string[], what: string) =>
  shows(
    page,
    rows.map((row) => (row.startsWith('# ') ? row : `test:${row}`)),
    what,
  );

/** The tags in the settings' list, top to bottom. */
const listed = (page: Page) => page.locator('.tag-row .tag-name').allTextContents();

/** Holds the next mutation named `name` until `meanwhile` (another client's write) is done. */
async function writeMeanwhile(page: Page, name: string, meanwhile: () => Promise<unknown>): Promise<void> {
  let done = false;
  await page.route('**/graphql', async (route) => {
    if (!done && route.request().postData()?.includes(`mutation ${name}`)) {
      done = true;
      await meanwhile();
    }
    await route.continue();
  });
}

describe('managing tags in the settings', () => {
  beforeAll(async () => {
    await createTag('alpha', '#2d62cf', ['api', 'bench']);
    await createTag('beta', '#23784a', ['docs']);
    await createTag('gamma', '#c2410c', []);
  });

  it('renames, recolours, reorders (from the keyboard) and deletes tags, and shows them so after a reload', async () => {
    const { page, errors } = await browser.open(kernel, '/settings');
    await until(async () => (await listed(page)).length === 3, 'the three tags listed');

    await page.getByRole('button', { name: 'Edit alpha' }).click();
    await page.getByRole('textbox', { name: 'Name of alpha' }).fill('api work');
    await page.getByLabel('Colour of alpha').fill('#aa3366');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.locator('.tag-row .tag-name', { hasText: 'api work' }).waitFor();

    // moved with the keyboard: the focus stays on the button that moved it, even at the top
    await page.getByRole('button', { name: 'Move gamma up' }).focus();
    await page.keyboard.press('Enter');
    await until(async () => (await listed(page)).join() === 'api work,gamma,beta', 'gamma moved up');
    await page.keyboard.press('Enter');
    await until(async () => (await listed(page)).join() === 'gamma,api work,beta', 'gamma at the top');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move gamma up');
    await page.keyboard.press('Enter');
    expect(await page.getByRole('button', { name: 'Move gamma up' }).getAttribute('aria-disabled')).toBe('true');

    await page.getByRole('button', { name: 'Delete beta…' }).click();
    const question = page.getByRole('group', { name: 'Delete beta?' });
    expect(await question.textContent()).toContain('1 session carries it');
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await until(async () => (await listed(page)).join() === 'gamma,api work', 'beta deleted');

    expect((await views()).tags.map(({ name, color, memberIds }) => ({ name, color, memberIds }))).toEqual([
      { name: 'gamma', color: '#c2410c', memberIds: [] },
      { name: 'api work', color: '#aa3366', memberIds: ['test:api', 'test:bench'] },
    ]);
    await page.reload();
    await until(async () => (await listed(page)).join() === 'gamma,api work', 'the tags as they were left, after a reload');
    const dot = page.locator('.tag-row', { hasText: 'api work' }).locator('.tag-dot');
    expect(await dot.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(170, 51, 102)');
    expect(errors).toEqual([]);
  });

  it('refuses a move made from tags that changed meanwhile, says so, shows them as they are now, and takes the move again', async () => {
    const { page, errors } = await browser.open(kernel, '/settings');
    await until(async () => (await listed(page)).join() === 'gamma,api work', 'the tags listed');
    const gamma = await tagNamed('gamma');
    await writeMeanwhile(page, 'SetTagOrder', () => kernel.gql(RECOLOR, { id: gamma.id, color: '#123456' }));

    await page.getByRole('button', { name: 'Move api work up' }).click();
    const alert = page.locator('[data-host-tags="test"] [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'The tags and views on test changed meanwhile, so the new order was not saved: they are shown as they are now, move it again.',
    );
    expect((await views()).tags.map((t) => t.name)).toEqual(['gamma', 'api work']);
    const gammaDot = page.locator('.tag-row', { hasText: 'gamma' }).locator('.tag-dot');
    await until(async () => (await gammaDot.evaluate((el) => getComputedStyle(el).backgroundColor)) === 'rgb(18, 52, 86)', "the other window's colour shown");

    await page.getByRole('button', { name: 'Move api work up' }).click();
    await until(async () => (await views()).tags.map((t) => t.name).join() === 'api work,gamma', 'the move taken the second time');
    await until(async () => (await listed(page)).join() === 'api work,gamma', 'the new order listed');
    await alert.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });
});

describe("the tab strip's lens and saved views", () => {
  it('narrows the strip to tags, orders it, saves that as a view, and picking the view sets the strip to it again, after a reload too', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await stripShows(page, ['zed', 'bench', 'docs', 'api'], 'every session, most recent first');

    await page.locator('.lens-tags summary').click();
    await page.getByRole('checkbox', { name: 'untagged' }).check();
    await stripShows(page, ['zed', 'docs'], 'the untagged only');
    await page.getByRole('checkbox', { name: 'api work' }).check();
    await stripShows(page, ['zed', 'bench', 'docs', 'api'], 'the untagged and those of api work');
    await page.getByRole('checkbox', { name: 'untagged' }).uncheck();
    await stripShows(page, ['bench', 'api'], 'those of api work');
    await page.getByRole('combobox', { name: 'Order tabs' }).selectOption('NAME');
    await stripShows(page, ['api', 'bench'], 'by name');
    await page.getByRole('searchbox', { name: 'Filter sessions' }).fill('the');
    expect(await page.locator('.lens-tags-chosen').textContent()).toBe('api work');

    await page.getByRole('button', { name: 'Save…' }).click();
    await page.getByRole('textbox', { name: 'View name' }).fill('api by name');
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.getByRole('textbox', { name: 'View name' }).waitFor({ state: 'detached' });
    const apiWork = await tagNamed('api work');
    expect((await views()).views).toEqual([
      { id: expect.stringMatching(/^test:/), name: 'api by name', filter: 'the', tagIds: [apiWork.id], untagged: false, order: 'NAME' },
    ]);
    const picker = page.getByRole('combobox', { name: 'Saved view' });
    expect(await picker.locator('option:checked').textContent()).toBe('api by name');

    await picker.selectOption({ label: 'all sessions' });
    await stripShows(page, ['zed', 'bench', 'docs', 'api'], 'every session again');
    expect(await page.getByRole('searchbox', { name: 'Filter sessions' }).inputValue()).toBe('');
    await picker.selectOption({ label: 'api by name' });
    await stripShows(page, ['api', 'bench'], 'the view picked');
    expect(await page.getByRole('searchbox', { name: 'Filter sessions' }).inputValue()).toBe('the');
    expect(await page.getByRole('combobox', { name: 'Order tabs' }).inputValue()).toBe('NAME');

    await page.reload();
    await stripShows(page, ['api', 'bench'], 'the view still applied after a reload');
    expect(await picker.locator('option:checked').textContent()).toBe('api by name');

    await page.getByRole('button', { name: 'Delete view api by name' }).click();
    await until(async () => (await views()).views.length === 0, 'the view deleted');
    await until(async () => (await picker.locator('option:checked').textContent()) === 'unsaved view', 'the strip as it was, no longer a saved view');
    await stripShows(page, ['api', 'bench'], 'the strip unchanged by the deletion');
    expect(errors).toEqual([]);
  });

  it('refuses a view saved from views that changed meanwhile, says so, keeps the name typed, and saves it on the second try', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.getByRole('combobox', { name: 'Saved view' }).selectOption({ label: 'all sessions' });
    await page.getByRole('combobox', { name: 'Order tabs' }).selectOption('PROJECT');
    await stripShows(page, ['bench', 'api', 'zed', 'docs'], 'by project, then most recent');
    await writeMeanwhile(page, 'SaveView', () => kernel.gql(CREATE, { name: 'delta', color: '#0e7490' }));

    await page.getByRole('button', { name: 'Save…' }).click();
    await page.getByRole('textbox', { name: 'View name' }).fill('by project');
    await page.getByRole('button', { name: 'Save view' }).click();
    const alert = page.locator('.lens-save [role="alert"]');
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      'The tags and views on test changed meanwhile, so the view "by project" was not saved: they are shown as they are now, save it again.',
    );
    expect((await views()).views).toEqual([]);
    expect(await page.getByRole('textbox', { name: 'View name' }).inputValue()).toBe('by project');

    await page.getByRole('button', { name: 'Save view' }).click();
    await until(async () => (await views()).views.map((v) => `${v.name} ${v.order}`).join() === 'by project PROJECT', 'the view saved the second time');
    // the page picks the view once the answer has landed, a moment after the host saved it
    const picked = page.getByRole('combobox', { name: 'Saved view' }).locator('option:checked');
    await until(async () => (await picked.textContent()) === 'by project', 'the saved view picked');
    expect(errors).toEqual([]);
  });

  it('keeps the grouping across a reload', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.getByRole('combobox', { name: 'Saved view' }).selectOption({ label: 'all sessions' });
    await page.getByRole('combobox', { name: 'Group tabs by' }).selectOption('tag');
    const grouped = ['# api work', 'bench', 'api', '# untagged', 'zed', 'docs'];
    await stripShows(page, grouped, 'grouped by tag');
    await page.reload();
    await stripShows(page, grouped, 'still grouped by tag after a reload');
    expect(await page.getByRole('combobox', { name: 'Group tabs by' }).inputValue()).toBe('tag');
    expect(errors).toEqual([]);
  });
});

describe('on a phone', () => {
  it("makes the lens's controls and the tags' buttons thumb-sized, and nothing scrolls sideways", async () => {
    const { page, errors } = await browser.open(kernel, '/settings', { phone: true });
    await page.locator('.tag-row').first().waitFor();
    const heights = (selector: string) => page.locator(selector).evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
    expect(Math.min(...(await heights('.tag-actions button')))).toBeGreaterThanOrEqual(44);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await page.getByRole('button', { name: 'Sessions', exact: true }).tap();
    await page.locator('dialog.drawer[open] .tab').first().waitFor();
    await page.locator('.drawer .lens-tags summary').tap();
    for (const selector of ['.drawer .lens-tags summary', '.drawer .lens-tags label', '.drawer .lens-manage', '.drawer .lens-row > *'])
      expect(Math.min(...(await heights(selector))), selector).toBeGreaterThanOrEqual(44);
    expect(await page.$eval('dialog.drawer', (el) => el.scrollWidth <= el.clientWidth)).toBe(true);

    // Manage tags leads to the settings' Tags section, closing the drawer
    await page.locator('.drawer .lens-manage').tap();
    await page.waitForSelector('dialog.drawer:not([open])', { state: 'attached' });
    expect(new URL(page.url()).pathname).toBe('/settings');
    expect(errors).toEqual([]);
  });
});
