import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { until } from '../helpers/wait';

// The top bar's search in Chromium over the real kernel, on a copy of the fixtures: `/`, words,
// Enter opens the chat at the hit with its row marked; arrows choose, Escape closes, a query the
// kernel refuses shows its sentence, and a phone gets a box a thumb can use. Beside the fixtures,
// a session whose rewound branch holds a word of its own.

const SEARCH_INDEXING = graphql(`query SearchIndexed { kernel { searchIndexing { done } } }`);
const BOX = 'input[aria-label="Search every session"]';
const OPTIONS = '[role="listbox"] [role="option"]';
/** `archlinux` is in one line of the fixtures: a WebSearch's result in session tool_heavy */
const TOOL_HEAVY = 'test:tool_heavy';
/** spotter 4d5611e5: 414 atoms, so its first prompt is pages older than the chat first loads */
const SPOTTER = 'test:4d5611e5-241a-462a-8d15-5122611a9569';

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;

beforeAll(async () => {
  browser = await startBrowser();
  root = mkdtempSync(join(tmpdir(), 'loom-search-e2e-'));
  cpSync(FIXTURES, join(root, 'projects'), { recursive: true });
  mkdirSync(join(root, 'projects', '-home-dev-demo'));
  const rewound = [
    prompt('q1', null, 'start the report'),
    assistant('b1', 'q1', [say('Started.')], 'end_turn'),
    prompt('q2', 'b1', 'write it in the zanzibarian style'),
    assistant('b2', 'q2', [say('Writing it that way.')], 'end_turn'),
    prompt('q3', 'b1', 'write it plainly'),
    assistant('b3', 'q3', [say('Writing it plainly.')], 'end_turn'),
  ];
  writeFileSync(join(root, 'projects', '-home-dev-demo', 'rewound.jsonl'), rewound.map(line).join(''));
  kernel = await startTestKernel(join(root, 'projects'), { stateDir: join(root, 'state'), search: true });
  await until(async () => (await kernel.gql(SEARCH_INDEXING)).data.kernel.searchIndexing?.done === true, 'the search index built', 30_000);
}, BROWSER_START_TIMEOUT_MS + 40_000);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

/** the kernel's own answer, with each hit's place, to know where each hit should lead */
const PLACED = graphql(`
  query Placed($query: String!) { search(query: $query, first: 20) { hits { id sequence rewound turn { id } session { id name loomName } } } }
`);
async function hitsFor(query: string) {
  const res = await kernel.gql(PLACED, { query });
  if (res.errors) throw new Error(res.errors[0].message);
  return res.data.search.hits;
}

/** a desktop page at `path` with the search box drawn */
async function opened(path = '/') {
  const opened = await browser.open(kernel, path);
  opened.page.setDefaultTimeout(10_000);
  await opened.page.waitForSelector(BOX);
  return opened;
}

/** the chat's location: the session's id and the search params */
function chatAt(page: Page) {
  const url = new URL(page.url());
  return { session: decodeURIComponent(url.pathname.replace(/^\/s\//, '')), turn: url.searchParams.get('turn'), at: url.searchParams.get('at') };
}

/** whether the element's box is inside the chat's scrolled view */
const inView = (page: Page, selector: string) =>
  page.$eval(selector, (row) => {
    const view = row.closest('.chat-scroll')!.getBoundingClientRect();
    const box = row.getBoundingClientRect();
    return box.top >= view.top - 1 && box.top < view.bottom;
  });

describe('the search box', () => {
  it('opens the chat at the hit: `/`, the word, Enter; the row is in view, marked, and shows the word', { timeout: 30_000 }, async () => {
    const [hit] = await hitsFor('archlinux');
    const { page, errors } = await opened('/');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search every session');
    await page.keyboard.type('archlinux');
    await page.keyboard.press('Enter');

    await page.waitForURL(/\/s\//);
    expect(chatAt(page)).toEqual({ session: TOOL_HEAVY, turn: null, at: String(hit.sequence) });
    const row = await page.waitForSelector('.chat-row[data-hit]');
    expect(await page.$$('.chat-row[data-hit]')).toHaveLength(1);
    // the line is a WebSearch's result: it is shown in its call's row, whose fold opens on the hit
    expect(await row.$eval('.tool-name', (el) => el.textContent)).toBe('WebSearch');
    await until(() => inView(page, '.chat-row[data-hit]'), "the hit's row scrolled into view");
    expect((await row.$eval('.tool-body', (el) => el.textContent ?? '')).toLowerCase()).toContain('archlinux');
    // the list closed, and the box let go of the focus
    expect(await page.$('[role="listbox"]')).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');

    // scrolled away, the same hit opened again brings its row back
    await page.$eval('.chat-scroll', (el) => el.scrollTo(0, el.scrollHeight));
    await until(async () => !(await inView(page, '.chat-row[data-hit]').catch(() => false)), "the hit's row scrolled away");
    await page.keyboard.press('/');
    await page.waitForSelector(OPTIONS);
    await page.keyboard.press('Enter');
    await until(() => inView(page, '.chat-row[data-hit]').catch(() => false), "the hit's row back in view");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('chooses another hit with the arrow keys, and opens that one', { timeout: 30_000 }, async () => {
    const hits = await hitsFor('traceback');
    expect(hits.length).toBeGreaterThan(2);
    const { page, errors } = await opened('/');
    await page.keyboard.press('/');
    await page.keyboard.type('traceback');
    await until(async () => (await page.$$(OPTIONS)).length === hits.length, 'a hit per line the kernel found');
    const selected = () => page.$$eval(OPTIONS, (options) => options.findIndex((o) => o.getAttribute('aria-selected') === 'true'));
    const activeIsSelected = () => page.$eval(BOX, (box) => box.getAttribute('aria-activedescendant') === document.querySelector('[aria-selected="true"]')?.id);
    expect(await selected()).toBe(0);
    expect(await activeIsSelected()).toBe(true);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    expect(await selected()).toBe(1);
    expect(await activeIsSelected()).toBe(true);
    // each result names its session, where the words were, and marks them
    const option = page.locator(OPTIONS).nth(1);
    expect(await option.locator('.search-hit-session').textContent()).toBe(hits[1].session!.loomName ?? hits[1].session!.name);
    expect(await option.locator('.search-hit-field').textContent()).toMatch(/^(prompt|reply|thinking|tool|input|output)$/);
    expect((await option.locator('mark').allTextContents()).join(' ').toLowerCase()).toContain('traceback');

    await page.keyboard.press('Enter');
    await until(() => chatAt(page).at === String(hits[1].sequence), 'the chat at the second hit');
    expect(chatAt(page).session).toBe(hits[1].session!.id);
    await page.waitForSelector('.chat-row[data-hit]');
    await until(() => inView(page, '.chat-row[data-hit]'), "the second hit's row in view");
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens a line a rewind took off the path at its session, and says where the line is', async () => {
    const [hit] = await hitsFor('zanzibarian');
    expect(hit).toMatchObject({ rewound: true, sequence: null, session: { id: 'test:rewound' } });
    const { page, errors } = await opened('/');
    await page.keyboard.press('/');
    await page.keyboard.type('zanzibarian');
    await page.waitForSelector(OPTIONS);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/s\//);
    expect(chatAt(page)).toEqual({ session: 'test:rewound', turn: null, at: null });
    expect(await page.textContent('.chat-notice >> text=/rewind/')).toMatch(/show what was rewound/);
    await page.waitForSelector('.rewound-note');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens a link to a line pages older than the newest, loading back to it', { timeout: 30_000 }, async () => {
    // the session's first prompt holds the phrase
    const [hit] = (await hitsFor('"bd show spotter-dov"')).filter((h) => h.session?.id === SPOTTER).sort((a, b) => a.sequence! - b.sequence!);
    const { data } = await kernel.gql(graphql(`query SpotterAtoms($id: ID!) { session(id: $id) { atomCount } }`), { id: SPOTTER });
    // older than the chat's first page of 150
    expect(hit!.sequence!).toBeLessThan(data.session!.atomCount - 200);
    const { page, errors } = await opened(`/s/${SPOTTER}?at=${hit!.sequence}`);
    const row = await page.waitForSelector('.chat-row[data-hit]', { timeout: 20_000 });
    expect(await row.getAttribute('data-sequence')).toBe(String(hit!.sequence));
    await until(() => inView(page, '.chat-row[data-hit]'), "the hit's row in view");
    expect(await row.textContent()).toContain('bd show spotter-dov');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('closes on Escape and gives the focus back', async () => {
    const { page, errors } = await opened('/');
    await page.focus('.net-button');
    await page.keyboard.press('/');
    await page.keyboard.type('npm');
    await page.waitForSelector(OPTIONS);
    expect(await page.getAttribute(BOX, 'aria-expanded')).toBe('true');
    await page.keyboard.press('Escape');
    expect(await page.$('[role="listbox"]')).toBeNull();
    expect(await page.getAttribute(BOX, 'aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('net-button');
    // the words stay: the box opens on them again
    await page.keyboard.press('/');
    await page.waitForSelector(OPTIONS);
    expect(await page.inputValue(BOX)).toBe('npm');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('leaves `/` to a field being typed in; the tab filter is reached with f', async () => {
    const { page, errors } = await opened('/');
    await page.waitForSelector('.tab');
    await page.keyboard.press('f');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Filter sessions');
    await page.keyboard.type('a/b');
    expect(await page.inputValue('input[aria-label="Filter sessions"]')).toBe('a/b');
    expect(await page.inputValue(BOX)).toBe('');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("shows the kernel's sentence for a query it cannot take, and says when no line matches", async () => {
    const { page, errors } = await opened('/');
    await page.keyboard.press('/');
    await page.keyboard.type('before:yesterday word');
    const error = await page.waitForSelector('.search-status .error');
    expect(await error.textContent()).toMatch(/^[^\n]*before:yesterday is not a date[^\n]*$/);
    expect(await page.$(OPTIONS)).toBeNull();

    await page.fill(BOX, 'quixoticzebrafjord');
    await page.waitForSelector('.search-status >> text=No lines match');
    expect(await page.$('.search-status .error')).toBeNull();
    // console errors are the failed query's own 400: nothing else
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.context().close();
  });

  it('loads the next page on "More results"', async () => {
    const { page, errors } = await opened('/');
    await page.keyboard.press('/');
    await page.keyboard.type('test');
    await until(async () => (await page.$$(OPTIONS)).length === 20, 'the first page of hits');
    await page.click('.search-more');
    await until(async () => (await page.$$(OPTIONS)).length > 20, 'the next page appended');
    const ids = await page.$$eval(OPTIONS, (options) => options.map((o) => o.getAttribute('data-hit')));
    expect(new Set(ids).size).toBe(ids.length);
    // the focus stayed in the box: Enter still opens the chosen hit
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search every session');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the search box on a phone', () => {
  it('opens from a thumb-sized button across the top bar, with 16px text, and opens a hit on a tap', { timeout: 30_000 }, async () => {
    const [hit] = await hitsFor('archlinux');
    const { page, errors } = await browser.open(kernel, '/', { phone: true });
    page.setDefaultTimeout(10_000);
    const button = await page.waitForSelector('button.search-open');
    const buttonBox = (await button.boundingBox())!;
    expect(buttonBox.height).toBeGreaterThanOrEqual(44);
    expect(buttonBox.width).toBeGreaterThanOrEqual(44);
    expect(await page.$(BOX)).toBeNull();
    await button.tap();

    const box = await page.waitForSelector(BOX);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Search every session');
    const inputBox = (await box.boundingBox())!;
    expect(inputBox.height).toBeGreaterThanOrEqual(44);
    expect(inputBox.width).toBeGreaterThan(390 / 2);
    expect(await box.evaluate((el) => getComputedStyle(el).fontSize)).toBe('16px');
    await page.keyboard.type('archlinux');
    const option = await page.waitForSelector(OPTIONS);
    const optionBox = (await option.boundingBox())!;
    expect(optionBox.x).toBeGreaterThanOrEqual(0);
    expect(optionBox.x + optionBox.width).toBeLessThanOrEqual(390);
    await option.tap();

    await page.waitForURL(/\/s\//);
    expect(chatAt(page)).toMatchObject({ session: TOOL_HEAVY, at: String(hit.sequence) });
    await page.waitForSelector('.chat-row[data-hit]');
    // the box folded back into its button
    expect(await page.$(BOX)).toBeNull();
    expect(await page.isVisible('button.search-open')).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
