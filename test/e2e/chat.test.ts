import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say, toolResult, toolUse } from '../helpers/records';
import { sleep, until } from '../helpers/wait';

// The chat pane in Chromium against real kernels: the fixtures for history and compaction, and
// a temp projects dir whose transcript the test writes for live appends and hostile text.

let browser: TestBrowser;
beforeAll(async () => {
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
});

/** sequences of the rows in the DOM (the virtualizer renders those near the view) */
const rowSequences = (page: Page) => page.$$eval('.chat-row[data-sequence]', (rows) => rows.map((r) => Number(r.getAttribute('data-sequence'))));

describe('the chat pane on the fixtures', () => {
  // spotter 4d5611e5: 414 atoms on the path (3 parallel results among them), the compact boundary at sequence 194
  const SESSION = 'test:4d5611e5-241a-462a-8d15-5122611a9569';
  const BOUNDARY = 194;
  let kernel: TestKernel;
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES);
  });
  afterAll(async () => {
    await kernel?.close();
  });

  it('opens at the newest atoms, and scrolling up reaches the compaction divider and the history before it', { timeout: 40_000 }, async () => {
    const { page, errors } = await browser.open(kernel, `/s/${SESSION}`);
    await page.waitForSelector('.chat-row[data-sequence]');
    const { data } = await kernel.gql(graphql(`query AtomCount($id: ID!) { session(id: $id) { atomCount } }`), { id: SESSION });
    // it opens at the bottom, on the newest rows (the last atoms are bookkeeping lines without a
    // row); the boundary, far older, is not loaded yet
    await until(
      () => page.$eval('.chat-scroll', (el) => el.scrollHeight > el.clientHeight && el.scrollTop + el.clientHeight >= el.scrollHeight - 2),
      'the chat scrolled to the bottom',
    );
    expect(Math.max(...(await rowSequences(page)))).toBeGreaterThan(data.session!.atomCount - 10);
    expect(await page.$('.divider-compaction')).toBeNull();

    // scroll up with the wheel, as a reader would, until the divider and a row before it are drawn
    await page.hover('.chat-scroll');
    await until(
      async () => {
        await page.mouse.wheel(0, -700);
        const drawn = await rowSequences(page);
        return drawn.includes(BOUNDARY) && drawn.some((s) => s < BOUNDARY);
      },
      'the compaction divider and the rows before it',
      20_000,
    );
    const divider = await page.waitForSelector(`.chat-row[data-sequence="${BOUNDARY}"] .divider-compaction`);
    expect(await divider.textContent()).toContain('compacted');
    // the history is drawn above the divider, in order
    const tops = await page.$$eval('.chat-row[data-sequence]', (rows) =>
      rows.map((r) => ({ sequence: Number(r.getAttribute('data-sequence')), top: r.getBoundingClientRect().top })).sort((a, b) => a.sequence - b.sequence),
    );
    const line = tops.find((r) => r.sequence === BOUNDARY)!.top;
    const before = tops.filter((r) => r.sequence < BOUNDARY);
    expect(before.length).toBeGreaterThan(0);
    expect(before.every((r) => r.top < line)).toBe(true);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('jumps to a turn from the table of contents, and opens at ?turn=', async () => {
    const { data } = await kernel.gql(graphql(`query TurnStarts($id: ID!) { session(id: $id) { turns { id trigger { sequence } } } }`), { id: SESSION });
    const [first, second] = data.session!.turns;
    const { page, errors } = await browser.open(kernel, `/s/${SESSION}`);
    await page.waitForSelector('.chat-row[data-sequence]');
    await page.click(`[data-toc-turn="${first.id}"]`);
    const trigger = await page.waitForSelector(`.chat-row[data-turn="${first.id}"]`, { timeout: 10_000 });
    expect(await trigger.getAttribute('data-sequence')).toBe(String(first.trigger!.sequence));
    await until(() => trigger.isVisible(), 'the first trigger in view');

    const linked = await browser.open(kernel, `/s/${SESSION}?turn=${encodeURIComponent(second.id)}`);
    const row = await linked.page.waitForSelector(`.chat-row[data-turn="${second.id}"]`, { timeout: 10_000 });
    await until(async () => {
      const box = await row.boundingBox();
      const view = await linked.page.$eval('.chat-scroll', (el) => el.getBoundingClientRect().toJSON());
      return box && box.y >= view.top - 1 && box.y < view.bottom;
    }, 'the linked turn in view');
    expect(errors).toEqual([]);
    expect(linked.errors).toEqual([]);
    await page.context().close();
    await linked.page.context().close();
  });

  it('says so when the session does not exist', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:no-such-session');
    const message = await page.waitForSelector('.chat-message.error');
    expect(await message.textContent()).toContain('No session test:no-such-session');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the chat pane on a transcript being written', () => {
  let root: string;
  let kernel: TestKernel;
  const file = (name: string) => join(root, '-home-dev-demo', `${name}.jsonl`);
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-chat-'));
    mkdirSync(join(root, '-home-dev-demo'));
    // a prompt, a tool call, its result, an answer: one file per test, so each starts the same
    const opening = [
      prompt('p1', null, 'list the files'),
      assistant('a1', 'p1', [toolUse('tu1', 'Bash')]),
      toolResult('r1', 'a1', 'tu1'),
      assistant('a2', 'r1', [say('There is **one** file.')], 'end_turn'),
    ];
    for (const name of ['tools', 'live', 'drop']) writeFileSync(file(name), opening.map(line).join(''));
    writeFileSync(
      file('hostile'),
      [
        prompt('h1', null, 'before <script>window.__pwned=1</script> after'),
        assistant(
          'h2',
          'h1',
          [say('inline <img src=x onerror="window.__pwned=1"> and [click](javascript:window.__pwned=1)\n\n<script>window.__pwned=1</script>')],
          'end_turn',
        ),
      ]
        .map(line)
        .join(''),
    );
    const long = [prompt('q0', null, 'question 0'), assistant('r0', 'q0', [say('answer 0')], 'end_turn')];
    for (let i = 1; i < 120; i++)
      long.push(prompt(`q${i}`, `r${i - 1}`, `question ${i}`), assistant(`r${i}`, `q${i}`, [say(`answer ${i}\n\nwith a second paragraph`)], 'end_turn'));
    writeFileSync(file('long'), long.map(line).join(''));
    kernel = await startTestKernel(root);
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('shows a tool call and its result as one widget', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:tools');
    const tool = await page.waitForSelector('.chat-row[data-sequence="2"] .tool');
    expect(await tool.textContent()).toMatch(/Bash.*ls.*2 chars/);
    // the result's own line has no row: it is inside the widget
    expect(await page.$('.chat-row[data-sequence="3"]')).toBeNull();
    await tool.click();
    await page.waitForSelector('.chat-row[data-sequence="2"] .tool-result >> text=ok');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows a line appended to the transcript within a second, once, and stays at the bottom', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:live');
    await page.waitForSelector('.chat-row[data-sequence="4"]');
    await sleep(300); // the stream is subscribed after the first page
    const text = 'a fresh answer 7f3a9';
    const appended = Date.now();
    appendFileSync(file('live'), line(prompt('p2', 'a2', 'and now?')) + line(assistant('a3', 'p2', [say(text)], 'end_turn')));
    await page.waitForSelector(`.chat-row >> text=${text}`, { timeout: 5_000 });
    expect(Date.now() - appended).toBeLessThan(1_000);
    await sleep(500); // any duplicate would have arrived by now
    expect(await page.locator('.chat-row', { hasText: text }).count()).toBe(1);
    // the reader was at the bottom: the new row is in view
    const inView = await page.$eval('.chat-scroll', (el) => {
      const row = [...el.querySelectorAll('.chat-row')].find((r) => r.textContent?.includes('a fresh answer'))!;
      const box = row.getBoundingClientRect();
      const view = el.getBoundingClientRect();
      return box.bottom <= view.bottom + 1 && box.top >= view.top - 1;
    });
    expect(inView).toBe(true);
    // the table of contents learns the new turn
    await page.waitForSelector('.toc >> text=and now?');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('adds nothing twice when the socket drops and the stream is resumed', async () => {
    const { page, context, errors } = await browser.open(kernel, '/s/test:drop');
    // load the page again with its WebSockets kept where the test can drop them
    await context.addInitScript(() => {
      const Native = window.WebSocket;
      const sockets: WebSocket[] = [];
      (window as unknown as { __sockets: WebSocket[] }).__sockets = sockets;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          sockets.push(this);
        }
      };
    });
    await page.reload();
    await page.waitForSelector('.chat-row[data-sequence="4"]');
    await sleep(300);
    appendFileSync(file('drop'), line(prompt('p9', 'a2', 'before the drop 51c2')));
    await page.waitForSelector('.chat-row >> text=before the drop 51c2');
    // drop the socket the way a sleeping laptop does; the client reconnects and resubscribes
    await page.evaluate(() => {
      for (const s of (window as unknown as { __sockets: WebSocket[] }).__sockets) s.close(4499, 'test drop');
    });
    await until(
      () => page.evaluate(() => (window as unknown as { __sockets: WebSocket[] }).__sockets.some((s) => s.readyState === WebSocket.OPEN)),
      'a new socket',
      // the client's reconnect backs off for seconds; on a loaded machine past the default 10 s once
      20_000,
    );
    await sleep(500); // the resubscriptions' first frames
    appendFileSync(file('drop'), line(assistant('a9', 'p9', [say('after the drop 51c2')], 'end_turn')));
    await page.waitForSelector('.chat-row >> text=after the drop 51c2', { timeout: 10_000 });
    await sleep(500);
    expect(await page.locator('.chat-row', { hasText: 'before the drop 51c2' }).count()).toBe(1);
    expect(await page.locator('.chat-row', { hasText: 'after the drop 51c2' }).count()).toBe(1);
    const sequences = await rowSequences(page);
    expect(new Set(sequences).size).toBe(sequences.length);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps the rows in view where they are when a line arrives while the reader is scrolled up', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:long');
    await page.waitForSelector('.chat-row[data-sequence="240"]');
    await page.hover('.chat-scroll');
    for (let i = 0; i < 4; i++) await page.mouse.wheel(0, -500);
    await sleep(300);
    const firstInView = () =>
      page.$eval('.chat-scroll', (el) => {
        const top = el.getBoundingClientRect().top;
        const row = [...el.querySelectorAll<HTMLElement>('.chat-row')].find((r) => r.getBoundingClientRect().top >= top)!;
        return { sequence: row.dataset.sequence, top: row.getBoundingClientRect().top, height: el.scrollHeight };
      });
    const before = await firstInView();
    appendFileSync(file('long'), line(prompt('q120', 'r119', 'one more question')));
    await until(async () => (await firstInView()).height > before.height, 'the new row laid out below');
    const after = await firstInView();
    expect(after.sequence).toBe(before.sequence);
    expect(Math.abs(after.top - before.top)).toBeLessThan(2);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('renders HTML and javascript: links in transcript text as inert text', async () => {
    const { page, errors } = await browser.open(kernel, '/s/test:hostile');
    await page.waitForSelector('.chat-row[data-sequence="2"] >> text=click');
    // the markup is shown as text, not run
    expect(await page.locator('.chat', { hasText: '<script>window.__pwned=1</script>' }).count()).toBe(1);
    expect(await page.locator('.chat', { hasText: '<img src=x onerror="window.__pwned=1">' }).count()).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();

    // the javascript: link is text that says its target was removed, not a link
    expect(await page.locator('.chat-row[data-sequence="2"] a', { hasText: 'click' }).count()).toBe(0);
    const inert = page.locator('.chat-row[data-sequence="2"] .inert-link', { hasText: 'click' });
    expect(await inert.getAttribute('title')).toContain('link target removed');
    await inert.click();
    await sleep(200);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expect(await page.$$('.chat script')).toHaveLength(0);
    expect(await page.$$('.chat img[onerror]')).toHaveLength(0);
    expect(await page.$$('.chat [href^="javascript:" i]')).toHaveLength(0);
    expect(page.context().pages()).toHaveLength(1); // no tab opened either
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
