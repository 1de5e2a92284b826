import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { byCost, costText, dollars, tokensText, type UsageRow } from '../../web/src/usage/figures';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { configureRemote, FAST_LINKS, FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';

// The usage view (/usage) and the chat header's usage, in Chromium: the figures on the page are
// the API's, read over GraphQL in the same test.

const ROWS = graphql(`
  query UsageRowsForTest($groupBy: UsageGroup!, $timeZone: String) {
    usage(groupBy: $groupBy, timeZone: $timeZone) {
      key inputTokens outputTokens cacheCreationTokens cacheReadTokens totalTokens cost costStatus
    }
  }
`);
const SESSION_USAGE = graphql(`
  query SessionUsageForTest($id: ID!) {
    session(id: $id) { usage(includeSubagents: true) { totalTokens cost costStatus } }
  }
`);
const LINK = graphql(`mutation LinkForUsageTest($target: String!, $name: String) {
  linkHost(target: $target, name: $name) { name status { state } } }`);

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The rows of usage(groupBy) on a kernel, days counted in the page's time zone. */
async function rows(kernel: TestKernel, page: Page, groupBy: 'DAY' | 'MODEL' | 'HOST' | 'SESSION'): Promise<UsageRow[]> {
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const { data, errors } = await kernel.gql(ROWS, { groupBy, timeZone });
  expect(errors).toBeUndefined();
  return data.usage;
}

/** What a table shows per row: its key, the exact token counts and the cost it carries. */
const tableRows = (page: Page, group: string) =>
  page.$$eval(`table[data-group="${group}"] tbody tr`, (trs) =>
    trs.map((tr) => {
      const value = (kind: string) => Number(tr.querySelector(`[data-kind="${kind}"]`)?.getAttribute('data-value'));
      const cost = tr.querySelector('[data-cost]')?.getAttribute('data-cost');
      return {
        key: tr.getAttribute('data-key'),
        input: value('input'),
        output: value('output'),
        cacheWrite: value('cache-write'),
        cacheRead: value('cache-read'),
        total: value('total'),
        cost: cost ? Number(cost) : null,
      };
    }),
  );

const asTableRows = (usage: UsageRow[]) =>
  [...usage].sort(byCost).map((r) => ({
    key: r.key,
    input: r.inputTokens,
    output: r.outputTokens,
    cacheWrite: r.cacheCreationTokens,
    cacheRead: r.cacheReadTokens,
    total: r.totalTokens,
    cost: r.cost,
  }));

/** The totals the API's days add up to. */
function sums(days: UsageRow[]): { tokens: number; cost: number | null } {
  let cost: number | null = 0;
  for (const d of days) cost = cost === null || d.cost === null ? null : cost + d.cost;
  return { tokens: days.reduce((n, d) => n + d.totalTokens, 0), cost };
}

/** axe-core's WCAG A and AA checks on the usage view, colour contrast included. */
async function accessibilityViolations(page: Page): Promise<string[]> {
  // evaluated rather than added as a script tag: the dashboard's CSP allows no inline script
  await page.evaluate(AXE);
  const results = await page.evaluate(() =>
    (window as unknown as { axe: { run(el: Element, o: object): Promise<AxeResults> } }).axe.run(document.querySelector('.usage')!, {
      runOnly: ['wcag2a', 'wcag2aa'],
    }),
  );
  return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** An assistant reply billed `usage` tokens by `model`. */
function billed(uuid: string, parent: string, model: string, usage: object) {
  const reply = assistant(uuid, parent, [say('done')], 'end_turn');
  return { ...reply, message: { ...reply.message, model, usage } };
}

let browser: TestBrowser;
beforeAll(async () => {
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(() => browser?.close());

// a lazy chunk, a kernel query and several steps each: room for a busy machine
describe('the usage view over the fixtures', { timeout: 45_000 }, () => {
  let kernel: TestKernel;
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES);
  });
  afterAll(() => kernel?.close());

  it('loads the chart only when opened, and shows totals that are the sums of usage by day', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.waitForSelector('.tab');
    const loadedView = () => page.evaluate(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/assets/UsagePane-')));
    expect(await loadedView()).toBe(false);

    await page.click('header.top a:text-is("Usage")');
    // the fixtures are older than the 30 days shown first
    await page.click('.usage-note a:text-is("Show all of it")');
    await page.waitForSelector('.usage-chart svg .recharts-bar-rectangle');
    expect(await loadedView()).toBe(true);
    expect(new URL(page.url()).searchParams.get('range')).toBe('all');

    const days = await rows(kernel, page, 'DAY');
    const total = sums(days);
    expect(total.cost).not.toBeNull();
    expect(Number(await page.getAttribute('.usage-totals', 'data-total-tokens'))).toBe(total.tokens);
    expect(await page.textContent('.usage-total-tokens')).toBe(tokensText(total.tokens));
    expect(Number(await page.getAttribute('.usage-total-cost .cost', 'data-cost'))).toBeCloseTo(total.cost!, 9);
    expect(await page.textContent('.usage-total-cost')).toBe(`≈ ${dollars(total.cost!)} estimated`);
    // a bar per day that cost something
    expect(await page.locator('.usage-chart .recharts-bar-rectangle').count()).toBe(days.filter((d) => d.cost! > 0).length);

    // the same days as a table
    expect(await tableRows(page, 'day')).toEqual(asTableRows(days).sort((a, b) => b.key.localeCompare(a.key)));
    // tokens stacked by kind: a bar series per kind
    await page.check('input[value="tokens"]');
    await page.waitForFunction(() => document.querySelectorAll('.usage-chart .recharts-bar').length === 4);
    expect(errors).toEqual([]);
  });

  it('lists a row per model and per host as usage by model and by host give them, highest cost first', async () => {
    const { page, errors } = await browser.open(kernel, '/usage?range=all');
    await page.waitForSelector('table[data-group="model"] tbody tr');
    expect(await tableRows(page, 'model')).toEqual(asTableRows(await rows(kernel, page, 'MODEL')));
    expect(await tableRows(page, 'host')).toEqual(asTableRows(await rows(kernel, page, 'HOST')));
    const sessions = asTableRows(await rows(kernel, page, 'SESSION'));
    expect(await tableRows(page, 'session')).toEqual(sessions.slice(0, 25));
    await page.click(`button:text-is("Show all ${sessions.length} sessions")`);
    expect(await tableRows(page, 'session')).toEqual(sessions);
    expect(errors).toEqual([]);
  });

  it("opens a session's chat from its row, whose header shows the session's usage with its subagents", async () => {
    const { page, errors } = await browser.open(kernel, '/usage?range=all');
    const first = page.locator('table[data-group="session"] tbody tr').first();
    const id = (await first.getAttribute('data-key'))!;
    await first.locator('a').click();
    await page.waitForURL(/\/s\//);
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/s/${id}`);

    const { data } = await kernel.gql(SESSION_USAGE, { id });
    const usage = data.session!.usage;
    const header = page.locator('.chat-header .chat-usage');
    await header.waitFor();
    expect(Number(await header.getAttribute('data-tokens'))).toBe(usage.totalTokens);
    expect(await header.textContent()).toBe(`${tokensText(usage.totalTokens)} tokens · ${costText(usage)}`);
    expect(await header.locator('.tokens-figure').getAttribute('title')).toMatch(
      /subagents? included: input [\d,]+ · output [\d,]+ · cache writes [\d,]+ · cache reads [\d,]+\nthis session alone: /,
    );
    expect(errors).toEqual([]);
  });

  it('passes the WCAG A and AA checks, colour contrast included, in the light and the dark theme', { timeout: 90_000 }, async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const { page, errors } = await browser.open(kernel, '/usage?range=all', { colorScheme });
      await page.waitForSelector('.usage-chart .recharts-bar-rectangle');
      expect(await accessibilityViolations(page), colorScheme).toEqual([]);
      expect(errors).toEqual([]);
      await page.context().close();
    }
  });

  it('fits a phone: the page is no wider than the screen, the tables scroll in their boxes', async () => {
    const { page, errors } = await browser.open(kernel, '/usage?range=all');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.waitForSelector('.usage-chart .recharts-bar-rectangle');
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    const box = await page.$eval('table[data-group="session"]', (table) => ({ table: table.scrollWidth, box: table.parentElement!.clientWidth }));
    expect(box.table).toBeGreaterThan(box.box);
    expect(errors).toEqual([]);
  });
});

describe('a model without a price', { timeout: 30_000 }, () => {
  let root: string;
  let kernel: TestKernel;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-usage-'));
    mkdirSync(join(root, '-home-dev-demo'));
    const write = (name: string, records: unknown[]) => writeFileSync(join(root, '-home-dev-demo', `${name}.jsonl`), records.map(line).join(''));
    write('priced', [prompt('p1', null, 'a question for a known model'), billed('p2', 'p1', 'claude-opus-4-6', { input_tokens: 1200, output_tokens: 300 })]);
    write('future', [
      prompt('f1', null, 'a question for a model from the future'),
      billed('f2', 'f1', 'claude-future-9', { input_tokens: 5000, output_tokens: 700 }),
    ]);
    kernel = await startTestKernel(root);
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('makes every total that includes it unknown, naming the model, and keeps its tokens', async () => {
    const { page, errors } = await browser.open(kernel, '/usage?range=all');
    await page.waitForSelector('table[data-group="model"] tbody tr');
    const total = page.locator('.usage-total-cost .cost');
    expect(await total.textContent()).toBe('unknown');
    expect(await total.getAttribute('title')).toBe("Unknown: claude-future-9 has no price in Loom's price table, so no cost is given; its tokens are counted");
    expect(Number(await page.getAttribute('.usage-totals', 'data-total-tokens'))).toBe(1200 + 300 + 5000 + 700);

    const models = await tableRows(page, 'model');
    expect(models.map((m) => [m.key, m.total, m.cost === null])).toEqual([
      ['claude-opus-4-6', 1500, false],
      ['claude-future-9', 5700, true],
    ]);
    expect(await page.locator('tr[data-key="claude-future-9"] .cost').textContent()).toBe('unknown');
    expect(await page.textContent('.usage')).toContain("Loom's price table has no price for claude-future-9");

    await page.click('tr[data-key="test:future"] a');
    const header = page.locator('.chat-header .chat-usage');
    await header.waitFor();
    expect(await header.textContent()).toBe(`${tokensText(5700)} tokens · unknown`);
    expect(errors).toEqual([]);
  });
});

describe('the usage view through a hub', { timeout: 45_000 }, () => {
  const roots: string[] = [];
  let sshd: TestSshd;
  let remote: TestKernel;
  let hub: TestKernel;

  /** a projects dir with one session, "<name>1", billed `input` tokens */
  const projects = (name: string, input: number) => {
    const root = mkdtempSync(join(tmpdir(), `loom-usage-${name}-`));
    mkdirSync(join(root, '-home-dev-demo'));
    const records = [
      prompt(`${name}-p1`, null, `a session on ${name}`),
      billed(`${name}-a1`, `${name}-p1`, 'claude-opus-4-6', { input_tokens: input, output_tokens: 10 }),
    ];
    writeFileSync(join(root, '-home-dev-demo', `${name}1.jsonl`), records.map(line).join(''));
    roots.push(root);
    return root;
  };

  beforeAll(async () => {
    sshd = await startSshd();
    const remoteStateDir = mkdtempSync(join(tmpdir(), 'loom-usage-remote-state-'));
    roots.push(remoteStateDir);
    remote = await startTestKernel(projects('gpu', 40_000), { hostName: 'gpubox', stateDir: remoteStateDir });
    hub = await startTestKernel(projects('hub', 2_000), { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } });
    const target = `${sshd.user}@127.0.0.1:${sshd.port}`;
    configureRemote(hub, { name: 'gpu', target, stateDir: remoteStateDir });
    expect((await hub.gql(LINK, { target, name: 'gpu' })).data.linkHost.status?.state).toBe('UP');
  }, 30_000);
  afterAll(async () => {
    await hub?.close();
    await remote?.close();
    await sshd?.close();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it("shows every host's usage, by host and by session, each session with its host and a link to its chat", async () => {
    const { page, errors } = await browser.open(hub, '/usage?range=all');
    await page.waitForSelector('table[data-group="session"] tbody tr');
    const hosts = await tableRows(page, 'host');
    expect(hosts.map((h) => h.key)).toEqual(['gpu', 'laptop']);
    expect(hosts).toEqual(asTableRows(await rows(hub, page, 'HOST')));
    expect(Number(await page.getAttribute('.usage-totals', 'data-total-tokens'))).toBe(sums(await rows(hub, page, 'DAY')).tokens);

    const gpu = page.locator('table[data-group="session"] tr[data-key="gpu:gpu1"]');
    expect(await gpu.locator('td').first().textContent()).toBe('gpu');
    expect(await gpu.locator('a').getAttribute('href')).toBe(`/s/${encodeURIComponent('gpu:gpu1')}`);
    expect(await gpu.locator('a').textContent()).toBe('a session on gpu');
    expect(errors).toEqual([]);
  });
});
