import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEED, GOAL_CARD } from '../../web/src/feed/queries';
import { COMPLETED_READ } from '../../web/src/feed/types';
import { graphql, type ResultOf, readFragment } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, toolResult } from '../helpers/records';
import { sleep, until } from '../helpers/wait';

const HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-hook.sh');
const COLUMNS = ['working', 'blocked', 'completed'] as const;

type FeedColumns = Record<(typeof COLUMNS)[number], readonly ResultOf<typeof GOAL_CARD>[]>;

/** The feed as the page reads it (its own query), by column. */
async function feedOf(kernel: TestKernel): Promise<FeedColumns> {
  const { feed } = (await kernel.gql(FEED)).data;
  return { working: readFragment(GOAL_CARD, feed.working), blocked: readFragment(GOAL_CARD, feed.blocked), completed: readFragment(GOAL_CARD, feed.completed) };
}

const GOALS_OF = graphql(`
  query GoalsOf($id: ID!) { session(id: $id) { goals { id anchor { id } trail { input { promptLine } atomCount } children { kind title } } } }
`);
const BLOCK_OF = graphql(`query BlockOf($id: ID!) { goal(id: $id) { block { kind text } } }`);

/** The goal ids each column of the page shows, top to bottom. */
async function shownColumns(page: Page): Promise<Record<(typeof COLUMNS)[number], string[]>> {
  return page.evaluate((names) => {
    const ids = (name: string) => [...document.querySelectorAll(`[data-column="${name}"] [data-goal]`)].map((e) => e.getAttribute('data-goal')!);
    return Object.fromEntries(names.map((n) => [n, ids(n)])) as never;
  }, COLUMNS);
}

/**
 * Presses a column's "Show … more" until every card is drawn (a column draws 50 at first). Cards
 * may still be arriving (after an Undo, session by session) into a column that already shows as
 * many as it has: then it waits for them, or for the button.
 */
async function showAll(page: Page, column: string, count: number): Promise<void> {
  const cards = `[data-column="${column}"] [data-goal]`;
  const more = `[data-column="${column}"] .feed-more`;
  await page.waitForFunction((selector) => document.querySelectorAll(selector).length > 0, cards);
  while ((await page.locator(cards).count()) < count) {
    await page.waitForFunction(([c, m, n]) => document.querySelectorAll(c as string).length >= (n as number) || document.querySelector(m as string) !== null, [
      cards,
      more,
      count,
    ] as const);
    if ((await page.locator(more).count()) > 0) await page.locator(more).click();
  }
  expect(await page.locator(more).count()).toBe(0);
}

let browser: TestBrowser;

/** A signed-in page at `/`, whose waits fail with a message before the test times out. */
async function openFeed(kernel: TestKernel) {
  const opened = await browser.open(kernel, '/');
  opened.page.setDefaultTimeout(8_000);
  return opened;
}

beforeAll(async () => {
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(() => browser?.close());

describe('the feed on the fixtures', () => {
  let kernel: TestKernel;
  beforeAll(async () => {
    // months after the newest record: nothing in the fixtures shows a sign of life
    kernel = await startTestKernel(FIXTURES, { now: () => Date.parse('2026-12-01T00:00:00Z') });
  });
  afterAll(() => kernel?.close());

  it('shows the goals of the feed query in their three columns, newest first', async () => {
    const feed = await feedOf(kernel);
    expect(feed.completed.length).toBeGreaterThan(20);
    const { page, errors } = await openFeed(kernel);
    await page.waitForSelector('[data-column="completed"] [data-goal]');
    expect(await page.locator('[data-column="completed"] [data-goal]').count()).toBe(50);
    await showAll(page, 'completed', feed.completed.length);
    const shown = await shownColumns(page);
    const updatedAt = new Map(COLUMNS.flatMap((c) => feed[c].map((g) => [g.id, Date.parse(g.updatedAt)] as const)));
    for (const column of COLUMNS) {
      expect(shown[column].toSorted()).toEqual(feed[column].map((g) => g.id).toSorted());
      const times = shown[column].map((id) => updatedAt.get(id)!);
      expect(times).toEqual(times.toSorted((a, b) => b - a));
    }
    // the fixtures have nothing blocked: the column says so
    expect(await page.textContent('[data-column="blocked"]')).toContain('Nothing needs you.');
    expect(errors).toEqual([]);
  });

  it('shows an ask left open as unfinished in the completed column, with the date of its last activity, and nothing as working', async () => {
    const id = 'test:d3ad4cdc-5657-435d-98fa-0035d53e383d/22ee3a31-1a38-4569-9fbd-345d28857dc6';
    const { page, errors } = await openFeed(kernel);
    const card = page.locator(`[data-column="completed"] [data-goal="${id}"]`);
    await showAll(page, 'completed', (await feedOf(kernel)).completed.length);
    expect(await card.locator('.goal-unfinished').textContent()).toBe('unfinished');
    const time = card.locator('.goal-age');
    expect(await time.getAttribute('datetime')).toBe('2025-06-08T11:56:46.820Z');
    // not "541d": a moment, with its year, since it was not this year
    expect(await time.textContent()).toContain('2025');
    expect(await page.textContent('[data-column="working"]')).toContain('Nothing is being worked on.');
    expect(errors).toEqual([]);
  });

  it('opens a goal in a modal with its trail, its todo items and a link to its turn', async () => {
    const { data } = await kernel.gql(GOALS_OF, { id: 'test:1af7fc5e-8455-4414-9ccd-011d40f70b2a' });
    const goal = data.session!.goals.find((g) => g.children.some((c) => c.kind === 'TODO'))!;
    const { page, errors } = await openFeed(kernel);
    const card = page.locator(`[data-goal="${goal.id}"]`);
    await card.click();
    const dialog = page.getByRole('dialog');
    await dialog.locator('.goal-trail').waitFor();
    const steps = dialog.locator('.goal-trail li');
    expect(await steps.count()).toBe(goal.trail.length);
    expect(await steps.first().textContent()).toContain(goal.trail[0].input!.promptLine);
    expect(await steps.first().textContent()).toContain(`${goal.trail[0].atomCount} atoms`);
    const children = dialog.locator('.goal-children li');
    expect(await children.allTextContents()).toEqual(goal.children.map((c) => expect.stringContaining(c.title)));
    expect(await children.first().textContent()).toContain('todo');

    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await card.click();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await card.click();
    await dialog.getByRole('link', { name: 'Open in chat' }).click();
    await page.waitForURL((url) => url.pathname === `/s/${encodeURIComponent('test:1af7fc5e-8455-4414-9ccd-011d40f70b2a')}`);
    expect(new URL(page.url()).searchParams.get('turn')).toBe(goal.anchor!.id);
    expect(errors).toEqual([]);
  });

  it('clears the completed column, and Undo brings every card back', async () => {
    const before = (await feedOf(kernel)).completed.map((g) => g.id);
    const { page, errors } = await openFeed(kernel);
    const completed = page.locator('[data-column="completed"]');
    await showAll(page, 'completed', before.length);
    // the kernel answers a clear with feedChanged for each session touched (their goals without the cleared ones)
    const changed = new Set<string>();
    const changes = kernel.ws().iterate<{ feedChanged: { sessionId: string } }>({ query: 'subscription { feedChanged { sessionId } }' });
    const consume = (async () => {
      for await (const r of changes) changed.add(r.data!.feedChanged.sessionId);
    })();
    await sleep(300); // let the subscription start before the clear
    await completed.getByRole('button', { name: 'Clear completed' }).click();
    await completed.getByText('Nothing completed.').waitFor();
    // the page hides the cards at once; Undo comes once the kernel has answered the clear
    await completed.getByRole('button', { name: 'Undo' }).waitFor();
    expect((await feedOf(kernel)).completed).toEqual([]);
    const touched = new Set(before.map((id) => id.slice(0, id.indexOf('/'))));
    await until(() => [...touched].every((s) => changed.has(s)), 'feedChanged for every session cleared');
    await sleep(200);
    expect(await completed.locator('[data-goal]').count()).toBe(0);
    await changes.return?.();
    await consume;

    await completed.getByRole('button', { name: 'Undo' }).click();
    await showAll(page, 'completed', before.length);
    expect((await shownColumns(page)).completed.toSorted()).toEqual(before.toSorted());
    expect((await feedOf(kernel)).completed.map((g) => g.id)).toEqual(before);
    expect(await completed.getByRole('button', { name: 'Undo' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });
});

describe('the feed of a long history', () => {
  let root: string;
  let kernel: TestKernel;
  const ASKS = COMPLETED_READ + 20;
  const file = () => join(root, '-home-dev-long', 'long.jsonl');

  beforeAll(async () => {
    // more answered asks than the page reads: a long history holds tens of thousands
    root = mkdtempSync(join(tmpdir(), 'loom-feed-long-'));
    mkdirSync(join(root, '-home-dev-long'));
    let lines = '';
    for (let i = 0; i < ASKS; i++)
      lines += line(prompt(`p${i}`, i === 0 ? null : `a${i - 1}`, `ask ${i}`)) + line(assistant(`a${i}`, `p${i}`, [say('done')], 'end_turn'));
    writeFileSync(file(), lines);
    kernel = await startTestKernel(root);
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('reads the most recent completed asks, newest first, and says where the older ones are', async () => {
    const all = (await kernel.gql(graphql(`{ feed { completed { id } } }`))).data.feed.completed.map((g) => g.id);
    expect(all).toHaveLength(ASKS);
    const { page, errors } = await openFeed(kernel);
    const column = page.locator('[data-column="completed"]');
    await column.locator('.feed-note').waitFor();
    expect(await column.locator('.feed-count').textContent()).toBe(String(COMPLETED_READ));
    expect(await column.locator('.feed-note').textContent()).toBe(`The ${COMPLETED_READ} most recent were read; older ones are in their sessions.`);
    expect(await column.locator('[data-goal]').first().getAttribute('data-goal')).toBe(all[0]);
    // an ask answered since comes first, and the column still holds the most recent ones only
    const last = `a${ASKS - 1}`;
    appendFileSync(file(), line(prompt('p-new', last, 'one more ask')) + line(assistant('a-new', 'p-new', [say('done')], 'end_turn')));
    await column.locator('[data-goal]').first().and(page.locator('[data-goal="test:long/p-new"]')).waitFor();
    expect(await column.locator('.feed-count').textContent()).toBe(String(COMPLETED_READ));
    expect(errors).toEqual([]);
  });
});

describe('the feed of a running session', () => {
  let root: string;
  let stateDir: string;
  let kernel: TestKernel;
  const file = () => join(root, '-home-dev-demo', 'g1.jsonl');
  // hook times and transcript times come from the same clock: write these lines at real times
  const now = <T extends object>(record: T): T => ({ ...record, timestamp: new Date().toISOString() });
  const hook = (event: string, fields: object = {}) => {
    const input = JSON.stringify({ session_id: 'g1', hook_event_name: event, ...fields });
    expect(spawnSync('sh', [HOOK, event, kernel.stateDir], { input }).status).toBe(0);
  };

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-feed-'));
    mkdirSync(join(root, '-home-dev-demo'));
    const bash = assistant('a1', 'p1', [{ type: 'tool_use', id: 't-a1', name: 'Bash', input: { command: 'rm -rf tmp' } }], 'tool_use');
    writeFileSync(file(), line(now(prompt('p1', null, 'delete the temp files'))) + line(now(bash)));
    // our own state dir, so a restarted kernel keeps the token the page signed in with
    stateDir = mkdtempSync(join(tmpdir(), 'loom-feed-state-'));
    kernel = await startTestKernel(root, { stateDir });
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('moves the card to "needs you" on a permission prompt, on once answered, and adds a new ask, without a reload', async () => {
    const { page, errors } = await openFeed(kernel);
    const card = (column: string) => page.locator(`[data-column="${column}"] [data-goal="test:g1/p1"]`);
    await card('working').waitFor();
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));

    await sleep(1000); // hook times have one-second resolution: the prompt must be older than the notification
    hook('Notification', { message: 'Claude needs your permission to use Bash', notification_type: 'permission_prompt' });
    await card('blocked').waitFor();
    const block = (await kernel.gql(BLOCK_OF, { id: 'test:g1/p1' })).data.goal!.block!;
    expect(block.kind).toBe('PERMISSION');
    expect(await card('blocked').locator('.goal-block').textContent()).toBe(`Permission: ${block.text}`);
    expect(await card('working').count()).toBe(0);

    await sleep(1100);
    appendFileSync(file(), line(now(toolResult('r1', 'a1', 't-a1'))));
    await card('working').waitFor();
    appendFileSync(file(), line(now(assistant('a2', 'r1', [say('deleted')], 'end_turn'))));
    hook('Stop');
    await card('completed').waitFor();
    expect(await card('completed').locator('.goal-block').count()).toBe(0);

    // a new ask of the same session gets a card of its own; the finished one stays
    appendFileSync(file(), line(now(prompt('p2', 'a2', 'now empty the cache'))));
    const next = page.locator('[data-column="working"] [data-goal="test:g1/p2"]');
    await next.waitFor();
    expect(await next.locator('.goal-title').textContent()).toBe('now empty the cache');
    expect(await card('completed').count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(errors).toEqual([]);
  });

  it('reads the feed again after the kernel comes back, with no card twice', async () => {
    const { page, errors } = await openFeed(kernel);
    await page.locator('[data-goal="test:g1/p1"]').waitFor();
    const { port } = kernel;
    await kernel.close();
    await page.locator('.banner >> text=reconnecting').waitFor();
    writeFileSync(join(root, '-home-dev-demo', 'g2.jsonl'), line(now(prompt('q1', null, 'written while the kernel was down'))));
    kernel = await startTestKernel(root, { port, stateDir });
    await page.locator('[data-column="working"] [data-goal="test:g2/q1"]').waitFor({ timeout: 15_000 });
    await page.locator('.banner').waitFor({ state: 'detached' });
    const feed = await feedOf(kernel);
    const shown = await shownColumns(page);
    for (const column of COLUMNS) expect(shown[column].toSorted()).toEqual(feed[column].map((g) => g.id).toSorted());
    // the socket drop itself is logged by Chromium as a failed WebSocket: nothing else may be
    expect(errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
  }, 40_000);
});
