import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';

// The details issue 19 found in daily use, each seen in Chromium.

const LONG_DIR = '/home/dev/a-rather-long-folder-name-that-cannot-fit/packages/the-last-folder';

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-details-'));
  mkdirSync(join(root, '-home-dev-long'));
  writeFileSync(join(root, '-home-dev-long', 'd1.jsonl'), line(prompt('p1', null, 'a session deep in a folder', { cwd: LONG_DIR })));
  kernel = await startTestKernel(root);
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a tab', () => {
  it('shows the end of a directory too long for it, its leading slash in place', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    const dir = page.locator('.tab[data-session="test:d1"] .dir');
    await dir.waitFor();
    expect(await dir.textContent()).toBe(LONG_DIR);
    // where the first and the last character are drawn, against the box the path is clipped to
    const drawn = await dir.evaluate((el) => {
      const box = el.getBoundingClientRect();
      const text = el.querySelector('bdi')?.firstChild ?? el.firstChild!;
      const at = (i: number) => {
        const range = document.createRange();
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        return range.getBoundingClientRect();
      };
      const first = at(0);
      const last = at((text.textContent ?? '').length - 1);
      return { left: box.left, right: box.right, first: first.left, last: last.right };
    });
    expect(drawn.last).toBeLessThanOrEqual(drawn.right + 0.5);
    expect(drawn.last).toBeGreaterThan(drawn.right - 20);
    expect(drawn.first).toBeLessThan(drawn.left);
    expect(errors).toEqual([]);
  });
});
