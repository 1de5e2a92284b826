import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBrowser, type TestBrowser } from '../helpers/browser';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';

let kernel: TestKernel;
let browser: TestBrowser;
beforeAll(async () => {
  [kernel, browser] = await Promise.all([startTestKernel(FIXTURES), startBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
});

describe('the dashboard shell', () => {
  it('lists every fixture session as a tab after the token link, most recent first', async () => {
    const { data } = await kernel.gql(`{ sessions(first: 500) { totalCount nodes { id } } }`);
    const { page, errors } = await browser.open(kernel, '/');
    await page.waitForSelector('.tabs-count >> text=/\\d+ of \\d+ sessions/');
    expect(await page.textContent('.tabs-count')).toBe(`${data.sessions.totalCount} of ${data.sessions.totalCount} sessions`);
    const first = await page.getAttribute('.tab >> nth=0', 'data-session');
    expect(first).toBe(data.sessions.nodes[0].id);
    expect(errors).toEqual([]);
  });
});
