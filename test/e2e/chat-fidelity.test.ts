import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, progress, prompt, say, screenshot, toolResult, toolUse } from '../helpers/records';

// What a naive reading of a transcript loses, shown in the chat in Chromium: parallel tool calls
// with every result (a screenshot among them), a new chain behind its divider, and a rewound
// turn that offers the version it replaced.

// a 1×1 PNG: the picture a browser tool returned
const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let browser: TestBrowser;
let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  browser = await startBrowser();
  root = mkdtempSync(join(tmpdir(), 'loom-chat-fidelity-'));
  mkdirSync(join(root, '-home-dev-demo'));
  const write = (name: string, records: unknown[]) => writeFileSync(join(root, '-home-dev-demo', `${name}.jsonl`), records.map(line).join(''));
  write('parallel', [
    prompt('p1', null, 'check the page and both files'),
    assistant('u1', 'p1', [toolUse('t1', 'Read')], null, 'm1'),
    progress('g1', 'u1'),
    assistant('u2', 'g1', [toolUse('t2', 'Grep')], null, 'm1'),
    progress('g2', 'u2'),
    assistant('u3', 'g2', [toolUse('t3', 'mcp__browser__screenshot')], 'tool_use', 'm1'),
    toolResult('r1', 'u1', 't1', 'first file'),
    toolResult('r2', 'u2', 't2', 'second match'),
    toolResult('r3', 'u3', 't3', screenshot(PIXEL)),
    assistant('a2', 'r3', [say('All three done.')], 'end_turn'),
  ]);
  write('rewound', [
    prompt('q1', null, 'start the report'),
    assistant('b1', 'q1', [say('Started.')], 'end_turn'),
    prompt('q2', 'b1', 'write it in French'),
    assistant('b2', 'q2', [say('Je commence le rapport.')], 'end_turn'),
    prompt('q3', 'b1', 'write it in English'),
    assistant('b3', 'q3', [say('Writing it in English.')], 'end_turn'),
    prompt('q4', null, 'Implement the following plan: ship the report'),
    assistant('b4', 'q4', [say('Shipped.')], 'end_turn'),
  ]);
  // a session that went quiet during a call, months ago: its transcript never got the result
  write('quiet', [prompt('w1', null, 'deploy it'), assistant('v1', 'w1', [toolUse('t9', 'Bash')], 'tool_use')]);
  kernel = await startTestKernel(root);
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the chat pane on transcripts a naive walk loses', () => {
  it('shows each of three parallel calls with its own result, and the screenshot one returned', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:parallel');
    await page.waitForSelector('.tool');
    const tools = await page.$$eval('.tool', (els) => els.map((el) => [el.className, el.querySelector('.tool-name')?.textContent]));
    expect(tools).toEqual([
      ['tool tool-ok', 'Read'],
      ['tool tool-ok', 'Grep'],
      ['tool tool-ok', 'mcp__browser__screenshot'],
    ]);
    const shot = (await page.$$('.tool'))[2];
    await shot.click();
    const img = await page.waitForSelector('.tool-body img.picture');
    expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('marks a rewritten turn and opens the version that was rewound', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:rewound');
    await page.waitForSelector('text=Writing it in English.');
    expect(await page.$('text=Je commence le rapport.')).toBeNull();
    const note = await page.waitForSelector('.rewound-note');
    expect(await note.textContent()).toContain('an earlier version of this turn was rewound');
    await page.click('.rewound-note button');
    const branch = await page.waitForSelector('.rewound-branch');
    expect(await branch.textContent()).toContain('write it in French');
    expect(await branch.textContent()).toContain('Je commence le rapport.');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('draws a divider where a new chain starts, with the chain before it above', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:rewound');
    const divider = await page.waitForSelector('.divider-new-chain');
    expect(await divider.textContent()).toContain('context cleared');
    const top = async (text: string) => (await page.waitForSelector(`text=${text}`)).evaluate((el) => el.getBoundingClientRect().top);
    const line = await divider.evaluate((el) => el.getBoundingClientRect().top);
    expect(await top('Writing it in English.')).toBeLessThan(line);
    expect(await top('Shipped.')).toBeGreaterThan(line);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('says a call has no result, not that it is running, when its session went quiet during it', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:quiet');
    const tool = await page.waitForSelector('.tool');
    expect(await tool.getAttribute('class')).toBe('tool tool-unanswered');
    expect(await tool.textContent()).toContain('no result');
    expect(await tool.textContent()).not.toContain('running');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
