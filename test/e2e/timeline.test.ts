import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { TIMELINE } from '../../web/src/timeline/queries';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';

// The timeline pane over the fixtures, in a real Chromium.

let browser: TestBrowser;
let kernel: TestKernel;
beforeAll(async () => {
  [browser, kernel] = await Promise.all([startBrowser(), startTestKernel(FIXTURES)]);
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
});

/** The window the pane shows, and the lanes the API gives for it. */
async function expectedLanes(page: Page): Promise<{ id: string; bars: string[] }[]> {
  const from = await page.getAttribute('.tl', 'data-from');
  const to = await page.getAttribute('.tl', 'data-to');
  // the pane's own query
  const { data } = await kernel.gql(TIMELINE, { from: from!, to: to!, lanes: 100 });
  return data.timeline.map((lane) => ({ id: lane.session.id, bars: lane.bars.map((b) => b.turnId) }));
}

const shownLanes = (page: Page) => page.$$eval('[data-lane]', (lanes) => lanes.map((l) => l.getAttribute('data-lane')));

// a page load, a kernel query and several steps each: room for a busy machine
describe('the timeline pane', { timeout: 45_000 }, () => {
  it('opens on the newest activity with the lanes the API gives, and shows them all on "all"', async () => {
    const { page, errors } = await browser.open(kernel, '/timeline');
    await page.waitForSelector('[data-lane] [data-turn]');
    const first = await expectedLanes(page);
    expect(first.length).toBeGreaterThan(0);
    expect(await shownLanes(page)).toEqual(first.map((l) => l.id));
    const lane = page.locator(`[data-lane="${first[0].id}"]`);
    expect(await lane.locator('[data-turn]').evaluateAll((bars) => bars.map((b) => b.getAttribute('data-turn')))).toEqual(first[0].bars);
    expect(await lane.locator('.host').textContent()).toBe('test:');

    await page.click('.tl-controls button:text-is("all")');
    const sessionCount = (await kernel.gql(graphql(`{ kernel { sessionCount } }`))).data.kernel.sessionCount;
    await page.waitForFunction((n) => document.querySelectorAll('[data-lane]').length >= Math.min(n, 15), sessionCount);
    const all = await expectedLanes(page);
    expect(all).toHaveLength(sessionCount);
    // only the lanes in view are in the DOM
    const shown = await shownLanes(page);
    expect(shown).toEqual(all.slice(0, shown.length).map((l) => l.id));
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens the chat at a turn when a bar is clicked', async () => {
    const { page, errors } = await browser.open(kernel, '/timeline');
    const bar = page.locator('[data-lane] [data-turn]').first();
    await bar.waitFor();
    const turn = await bar.getAttribute('data-turn');
    const session = await page.locator('[data-lane]').first().getAttribute('data-lane');
    await bar.click();
    await page.waitForURL(/\/s\//);
    const url = new URL(page.url());
    expect(decodeURIComponent(url.pathname)).toBe(`/s/${session}`);
    expect(url.searchParams.get('turn')).toBe(turn);
    expect(turn!.startsWith(`${session}:`)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('zooms and pans with the buttons, and keeps to the tab filter', async () => {
    const { page, errors } = await browser.open(kernel, '/timeline');
    await page.waitForSelector('[data-lane]');
    const window = async () => ({
      from: Date.parse((await page.getAttribute('.tl', 'data-from'))!),
      to: Date.parse((await page.getAttribute('.tl', 'data-to'))!),
    });
    const day = await window();
    expect(day.to - day.from).toBe(86_400_000);
    await page.click('button[aria-label="Zoom out"]');
    const wider = await window();
    expect(wider.to - wider.from).toBe(2 * 86_400_000);
    await page.click('button[aria-label="Earlier"]');
    expect((await window()).to).toBe(wider.to - 86_400_000);
    await page.click('.tl-controls button:text-is("1h")');
    const hour = await window();
    expect(hour.to - hour.from).toBe(3_600_000);

    // drag the axis half its width to the right: half an hour earlier
    const axis = (await page.locator('.tl-axis-track').boundingBox())!;
    const y = axis.y + axis.height / 2;
    await page.mouse.move(axis.x + axis.width * 0.25, y);
    await page.mouse.down();
    await page.mouse.move(axis.x + axis.width * 0.5, y, { steps: 5 });
    await page.mouse.move(axis.x + axis.width * 0.75, y, { steps: 5 });
    await page.mouse.up();
    const dragged = await window();
    expect(Math.abs(dragged.to - (hour.to - 1_800_000))).toBeLessThan(60_000);
    // a wheel over the axis zooms out around the pointer
    await page.mouse.wheel(0, 300);
    await page.waitForFunction((before) => {
      const tl = document.querySelector('.tl')!;
      return Date.parse(tl.getAttribute('data-to')!) - Date.parse(tl.getAttribute('data-from')!) > before;
    }, 3_600_000);

    await page.click('.tl-controls button:text-is("all")');
    await page.waitForSelector('[data-lane] >> nth=2');
    await page.fill('input[aria-label="Filter sessions"]', 'spotter');
    const tabs = await page.$$eval('.tab', (tabs) => tabs.map((t) => t.getAttribute('data-session')));
    await page.waitForFunction((n) => document.querySelectorAll('[data-lane]').length === n, tabs.length);
    expect(await shownLanes(page)).toEqual(tabs);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
