import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { buildLog } from '../helpers/build-log';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, toolResult, toolUse } from '../helpers/records';
import { openedTool } from '../helpers/tool-widgets';

// A block of 10 MiB once held Chromium at full CPU for over 50 s. The chat asks each block for
// its first 4,000 characters (web/src/chat/queries.ts) and reads the rest only on "show all".

const PREFIX = 4000;
const MiB = 2 ** 20;

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  browser = await startBrowser();
  root = mkdtempSync(join(tmpdir(), 'loom-long-blocks-'));
  mkdirSync(join(root, '-home-dev-demo'));
  const log = buildLog(10 * MiB, 'THE LAST LINE OF THE LOG');
  const write = (name: string, records: unknown[]) => writeFileSync(join(root, '-home-dev-demo', `${name}.jsonl`), records.map(line).join(''));
  write('huge-text', [prompt('p1', null, 'paste the build log'), assistant('a1', 'p1', [say(log)], 'end_turn')]);
  write('huge-result', [
    prompt('p1', null, 'read the build log'),
    assistant('a1', 'p1', [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/tmp/build.log' } }], 'tool_use'),
    toolResult('r1', 'a1', 't1', log),
    assistant('a2', 'r1', [say('It built.')], 'end_turn'),
  ]);
  // inputs longer than the chat's 4,000 characters: what the special views draw is cut until "show all"
  const lines = (word: string) => Array.from({ length: 20_000 }, (_, i) => `${word} ${i}`).join('\n');
  const numbered = Array.from({ length: 800 }, (_, i) => `line ${i}`).join('\n');
  const report = `## Report\n\n${'All checks passed. '.repeat(2000)}\n\nEND OF THE REPORT`;
  write('long-tools', [
    prompt('p1', null, 'change the tail, write the notes, ask a subagent'),
    assistant('a1', 'p1', [
      toolUse('edit', 'Edit', { file_path: '/home/dev/demo/big.txt', old_string: `${numbered}\nOLD TAIL`, new_string: `${numbered}\nNEW TAIL` }),
    ]),
    toolResult('r1', 'a1', 'edit', 'updated'),
    assistant('a2', 'r1', [toolUse('write', 'Write', { file_path: '/home/dev/demo/notes.txt', content: `${numbered}\nTHE LAST NOTE` })]),
    toolResult('r2', 'a2', 'write', 'written'),
    assistant('a3', 'r2', [toolUse('task', 'Task', { description: 'Check', subagent_type: 'Explore', prompt: 'Check everything.' })]),
    toolResult('r3', 'a3', 'task', [{ type: 'text', text: report }]),
    // two texts with no line in common, 20,000 lines each: more than a page can diff in its budget
    assistant('a4', 'r3', [
      toolUse('rewrite', 'MultiEdit', {
        file_path: '/home/dev/demo/data.txt',
        edits: [{ old_string: lines('old'), new_string: lines('new') }],
      }),
    ]),
    toolResult('r4', 'a4', 'rewrite', 'updated'),
    assistant('a5', 'r4', [say('Done.')], 'end_turn'),
  ]);
  kernel = await startTestKernel(root);
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

/** characters of text in the whole page */
const pageText = (page: Page) => page.evaluate(() => document.body.textContent?.length ?? 0);

describe('a 10 MiB block in the chat', () => {
  it('opens with at most its first characters in the page, as Markdown, collapsed to a few lines', { timeout: 60_000 }, async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:huge-text');
    const block = await page.waitForSelector('.prose[data-state="cut"]');
    expect(await block.$eval('.held-text h1', (h) => h.textContent)).toBe('Build log');
    expect(await block.$eval('.held-text', (el) => el.textContent?.length)).toBeLessThanOrEqual(PREFIX);
    // nothing else of it anywhere: the whole page holds less text than the prefix and some chrome
    expect(await pageText(page)).toBeLessThan(PREFIX + 2000);
    expect(await block.$eval('.held-text', (el) => el.getBoundingClientRect().height)).toBeLessThan(200);
    expect(await block.$eval('.show-all', (b) => b.textContent)).toMatch(/^show all 10,48\d,\d{3} characters$/);
    expect(await page.$('text=THE LAST LINE OF THE LOG')).toBeNull();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows all of it as plain text on "show all", and lets it go again on "show less"', { timeout: 120_000 }, async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:huge-text');
    await page.click('.prose[data-state="cut"] .show-all');
    const started = Date.now();
    const whole = await page.waitForSelector('.prose[data-state="whole"] pre.plain-text', { timeout: 90_000 });
    console.log(`10 MiB block shown whole in ${Date.now() - started} ms`);
    expect(await whole.evaluate((el) => el.textContent?.endsWith('THE LAST LINE OF THE LOG'))).toBe(true);
    expect(await pageText(page)).toBeGreaterThan(10 * MiB - 200);
    // the tab still answers
    await page.evaluate(() => 1);
    await page.click('.prose[data-state="whole"] .show-all');
    await page.waitForSelector('.prose[data-state="cut"]');
    expect(await pageText(page)).toBeLessThan(PREFIX + 2000);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('opens a 10 MiB tool result with its first characters, and all of them on "show all"', { timeout: 120_000 }, async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:huge-result');
    const tool = await page.waitForSelector('.tool');
    expect(await tool.$eval('.tool-state', (s) => s.textContent)).toBe('10.5M chars');
    await tool.click();
    const result = await page.waitForSelector('.tool-body pre.tool-result');
    expect(await result.evaluate((el) => el.textContent?.length)).toBeLessThanOrEqual(PREFIX);
    expect(await pageText(page)).toBeLessThan(PREFIX + 2000);
    await page.click('.tool-body .show-all');
    await page.waitForSelector('.tool-body .held[data-state="whole"]', { timeout: 90_000 });
    expect(await page.$eval('.tool-body pre.tool-result', (el) => el.textContent?.endsWith('THE LAST LINE OF THE LOG'))).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe("a tool call's long input in its own view", () => {
  it('diffs an Edit from the cut input, then from the whole on "show all", folding long unchanged runs', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:long-tools');
    const edit = await openedTool(page, 'Edit');
    const held = edit.locator('.tool-input-held');
    expect(await held.getAttribute('data-state')).toBe('cut');
    // both strings cut at the same place: nothing changed in what the chat holds, and it says the diff is of the cut
    expect(await edit.locator('.diff-added').count()).toBe(0);
    expect(await edit.locator('.diff-note').textContent()).toBe(
      'compared on the first characters of each side, as the chat holds them: “show all” compares the whole',
    );
    expect(await held.locator('> .show-all').textContent()).toBe('show all (its longest field: 7.1k chars)');
    await held.locator('> .show-all').click();
    await edit.locator('.tool-input-held[data-state="whole"] .diff-added').waitFor();
    expect(await edit.locator('.diff-note').count()).toBe(0);
    expect(await edit.locator('.diff-removed').textContent()).toBe('- OLD TAIL\n');
    expect(await edit.locator('.diff-added').textContent()).toBe('+ NEW TAIL\n');
    // 800 unchanged lines: the three before the change, the rest folded
    expect(await edit.locator('.diff-fold').textContent()).toBe('⋯ 797 unchanged lines');
    expect(await edit.locator('.diff-same').textContent()).toBe('  line 797\n  line 798\n  line 799\n');
    await edit.locator('.diff-fold').click();
    expect(await edit.locator('.diff-same').textContent()).toContain('  line 0\n  line 1\n');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says a Write\'s size is at least what the chat holds, and its whole size and text on "show all"', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:long-tools');
    const write = await openedTool(page, 'Write');
    expect(await write.locator('.file-size').textContent()).toBe('writes at least 4.0k chars, at least 457 lines');
    await write.locator('.tool-input-held > .show-all').click();
    await write.locator('.tool-input-held[data-state="whole"]').waitFor();
    expect(await write.locator('.file-size').textContent()).toBe('writes 7.1k chars, 801 lines');
    await write.locator('.file-content summary').click();
    expect(await write.locator('.file-content pre').textContent()).toMatch(/THE LAST NOTE$/);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a subagent\'s long report as Markdown from its first characters, and the rest on "show all"', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:long-tools');
    const task = await openedTool(page, 'Task');
    const report = task.locator('.subagent-report .prose');
    expect(await report.locator('h2').textContent()).toBe('Report');
    expect(await report.textContent()).not.toContain('END OF THE REPORT');
    await report.locator('.show-all').click();
    await task.locator('.subagent-report .prose[data-state="whole"]').waitFor();
    expect(await report.locator('.held-text').textContent()).toMatch(/END OF THE REPORT$/);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
