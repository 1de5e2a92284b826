import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { stripRows } from '../helpers/tab-strip';
import { until } from '../helpers/wait';

// Loom names and tags in the dashboard, seen in Chromium: renamed from the chat header, tagged
// there, shown on the tab, and grouped by in the tab strip.

const SESSION = graphql(`query TaggedSession($id: ID!) { session(id: $id) { name loomName tags { name color } } }`);

let browser: TestBrowser;
let root: string;
let transcript: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-tags-'));
  mkdirSync(join(root, '-home-dev-tags'));
  transcript = join(root, '-home-dev-tags', 'named.jsonl');
  writeFileSync(transcript, [prompt('n1', null, 'profile the loader'), assistant('n2', 'n1', [say('profiled')], 'end_turn')].map(line).join(''));
  writeFileSync(join(root, '-home-dev-tags', 'other.jsonl'), line(prompt('o1', null, 'another session')));
  kernel = await startTestKernel(root);
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

const session = async () => (await kernel.gql(SESSION, { id: 'test:named' })).data.session;

describe('renaming a session from the chat header', () => {
  it('shows the new name on its tab and in the header, keeps it in Loom, and leaves the transcript as it was', async () => {
    const before = readFileSync(transcript);
    const { page, errors } = await browser.open(kernel, '/s/test:named');
    await page.getByRole('button', { name: 'Rename session' }).click();
    const field = page.getByRole('textbox', { name: 'Session name' });
    await field.fill('loader profiling');
    await field.press('Enter');
    await page.locator('.chat-title .host-name', { hasText: 'loader profiling' }).waitFor();
    await page.locator('.tab[data-session="test:named"] .host-name', { hasText: 'loader profiling' }).waitFor();
    expect((await session())?.loomName).toBe('loader profiling');
    expect(readFileSync(transcript).equals(before)).toBe(true);

    // Escape leaves the name as it is; an empty name gives the session back its own
    await page.getByRole('button', { name: 'Rename session' }).click();
    await field.fill('never saved');
    await field.press('Escape');
    expect(await page.locator('.chat-title .host-name').textContent()).toBe('test:loader profiling');
    await page.getByRole('button', { name: 'Rename session' }).click();
    await field.fill('');
    await field.press('Enter');
    await until(async () => (await session())?.loomName === null, 'the Loom name given back');
    await page.locator('.tab[data-session="test:named"] .host-name', { hasText: 'profile the loader' }).waitFor();
    expect(errors).toEqual([]);
  });
});

describe('tagging a session from the chat header', () => {
  it('creates a tag, shows it on the tab and in the API, groups the tab under it, then removes it', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:named');
    await page.getByRole('button', { name: '+ tag' }).click();
    await page.getByRole('textbox', { name: 'New tag name' }).fill('training');
    await page.getByLabel('New tag colour').fill('#aa3366');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('.chat-header .tag-chip', { hasText: 'training' }).waitFor();
    const dot = page.locator('.tab[data-session="test:named"] .tag-dot');
    await dot.waitFor();
    expect(await dot.textContent()).toBe('training');
    expect(await dot.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(170, 51, 102)');
    expect((await session())?.tags).toEqual([{ name: 'training', color: '#aa3366' }]);

    // grouped by tag: a header for it with the tab under it, the untagged after
    await page.getByRole('combobox', { name: 'Group tabs by' }).selectOption('tag');
    await page.locator('.tabs-group', { hasText: 'untagged' }).waitFor();
    expect(await stripRows(page)).toEqual(['# training', 'test:named', '# untagged', 'test:other']);
    await page.getByRole('combobox', { name: 'Group tabs by' }).selectOption('none');

    await page.getByRole('button', { name: 'Remove tag training' }).click();
    await until(async () => (await session())?.tags.length === 0, 'the tag removed');
    await dot.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
  });

  it('adds a tag the host has already, from the list', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:other');
    await page.getByRole('button', { name: '+ tag' }).click();
    await page.getByRole('combobox', { name: 'Existing tag' }).selectOption({ label: 'training' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('.tab[data-session="test:other"] .tag-dot').waitFor();
    expect((await kernel.gql(SESSION, { id: 'test:other' })).data.session?.tags.map((t) => t.name)).toEqual(['training']);
    expect(errors).toEqual([]);
  });

  it('fits a phone: the chat with its tags does not scroll sideways', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:other', { phone: true });
    await page.locator('.chat-header .tag-chip', { hasText: 'training' }).waitFor();
    await page.getByRole('button', { name: '+ tag' }).click();
    await page.getByRole('textbox', { name: 'New tag name' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await page.$eval('.chat-header', (el) => el.scrollWidth <= el.clientWidth)).toBe(true);
    expect(errors).toEqual([]);
  });
});

describe('the timeline narrowed to a tag', () => {
  it("shows only the lanes of the tag's sessions, and every lane again on 'every tag'", async () => {
    const { page, errors } = await browser.open(kernel, '/timeline');
    const lanes = page.locator('.tl-lane');
    await until(async () => (await lanes.count()) === 2, 'both lanes');
    const tags = (await kernel.gql(graphql(`query LaneTags { views { tags { name memberIds } } }`))).data.views.tags;
    const training = tags.find((t) => t.name === 'training')!;
    await page.getByRole('combobox', { name: 'Lanes of tag' }).selectOption({ label: 'training' });
    await until(async () => (await lanes.count()) === training.memberIds.length, "the tag's lanes only");
    expect(await lanes.evaluateAll((els) => els.map((el) => el.getAttribute('data-lane')))).toEqual(training.memberIds);
    await page.getByRole('combobox', { name: 'Lanes of tag' }).selectOption({ label: 'every tag' });
    await until(async () => (await lanes.count()) === 2, 'both lanes again');
    expect(errors).toEqual([]);
  });
});
