import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';

// The details issue 19 found in daily use, each seen in Chromium.

/** a list as Claude writes one: lines ended by a single newline, no Markdown list marker */
const LINES = 'Changed:\nweb/src/a.ts\nweb/src/b.ts\n\n```\nin code\nno break\n```';
/** what `/compact` prints, as 2.1.39 writes it: dimmed by terminal escape codes */
const COMPACT_OUTPUT =
  '<local-command-stdout>\u001b[2mCompacted (ctrl+o to see full summary)\u001b[22m\n\u001b[2mPreCompact [bd prime] completed successfully\u001b[22m</local-command-stdout>';
const LONG_DIR = '/home/dev/a-rather-long-folder-name-that-cannot-fit/packages/the-last-folder';

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-details-'));
  mkdirSync(join(root, '-home-dev-long'));
  const write = (name: string, records: unknown[]) => writeFileSync(join(root, '-home-dev-long', `${name}.jsonl`), records.map(line).join(''));
  write('d1', [prompt('p1', null, 'a session deep in a folder', { cwd: LONG_DIR })]);
  write('compact', [prompt('c1', null, '/compact'), prompt('c2', 'c1', COMPACT_OUTPUT)]);
  const daysAgo = (days: number) => ({ timestamp: new Date(Date.now() - days * 86_400_000).toISOString() });
  write('old', [
    prompt('o1', null, 'a question asked long ago', daysAgo(292)),
    assistant('o2', 'o1', [say('answered long ago')], 'end_turn'),
    prompt('o3', 'o2', 'and one asked today', daysAgo(0)),
  ]);
  write('lines', [prompt('l1', null, 'which files changed?'), assistant('l2', 'l1', [say(LINES)], 'end_turn')]);
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

describe('the chat', () => {
  it('keeps single newlines in a message as line breaks, and code as it is', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:lines');
    const text = page.locator('.msg-claude .md').first();
    await text.waitFor();
    // biome-ignore lint/performance/useDomNodeTextContent: the lines as drawn are what is asserted
    expect(await text.locator('p').innerText()).toBe('Changed:\nweb/src/a.ts\nweb/src/b.ts');
    expect(await text.locator('p br').count()).toBe(2);
    expect(await text.locator('pre br').count()).toBe(0);
    expect(await text.locator('pre').textContent()).toBe('in code\nno break\n');
    expect(errors).toEqual([]);
  });

  it('shows what a command printed without its terminal escape codes', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:compact');
    const output = page.locator('.msg', { hasText: 'Compacted' });
    await output.locator('summary').click();
    await output.locator('.md').waitFor();
    const text = (await output.textContent()) ?? '';
    expect(text).toContain('Compacted (ctrl+o to see full summary)');
    expect(text).toContain('PreCompact [bd prime] completed successfully');
    expect(text).not.toContain('\u001b');
    expect(text).not.toMatch(/\[2m|\[22m/);
    expect(errors).toEqual([]);
  });

  it('dates a message that is not from today, and gives one from today its time only', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:old');
    const time = (text: string) => page.locator('.msg', { hasText: text }).locator('.speaker time');
    await time('asked today').waitFor();
    const old = time('asked long ago');
    const iso = (await old.getAttribute('datetime'))!;
    const date = await page.evaluate((t) => new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' }).format(new Date(t)), iso);
    expect(await old.textContent()).toContain(date);
    expect((await time('asked today').textContent())?.trim()).toMatch(/^\d\d:\d\d$/);
    expect(errors).toEqual([]);
  });
});
