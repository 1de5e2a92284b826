import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt } from '../helpers/records';
import { sleep, until } from '../helpers/wait';

const HOOK = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom-hook.sh');
/** the page's window, with the banner texts a test collects on it */
type BannerLog = Window & { banners?: string[] };

let browser: TestBrowser;
beforeAll(async () => {
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(() => browser?.close());

describe('the dashboard over the fixtures', () => {
  let kernel: TestKernel;
  beforeAll(async () => {
    kernel = await startTestKernel(FIXTURES);
  });
  afterAll(() => kernel?.close());

  it('lists every fixture session as a tab after the token link, most recent first', async () => {
    const { data } = await kernel.gql(graphql(`query AllTabs { sessions(first: 500) { totalCount nodes { id } } }`));
    const { page, errors } = await browser.open(kernel, '/');
    await page.waitForSelector('.tabs-count >> text=/\\d+ of \\d+ sessions/');
    expect(await page.textContent('.tabs-count')).toBe(`${data.sessions.totalCount} of ${data.sessions.totalCount} sessions`);
    expect(await page.getAttribute('.tab >> nth=0', 'data-session')).toBe(data.sessions.nodes[0].id);
    expect(errors).toEqual([]);
  });

  it('filters the tabs by text after `f`, and steps through them with j and k', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.waitForSelector('.tab');
    await page.keyboard.press('f');
    await page.keyboard.type('spotter');
    await page.waitForSelector('.tabs-count >> text=/^\\d+ of/');
    const shown = await page.$$eval('.tab', (tabs) => tabs.map((t) => t.textContent ?? ''));
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((t) => /spotter/i.test(t))).toBe(true);
    await page.keyboard.press('Escape');
    await page.keyboard.press('j');
    await page.waitForURL(/\/s\//);
    const first = await page.getAttribute('.tab >> nth=0', 'data-session');
    expect(decodeURIComponent(new URL(page.url()).pathname)).toBe(`/s/${first}`);
    expect(errors).toEqual([]);
  });

  it('shows the login page, not the dashboard, to a browser without the token', async () => {
    const context = await browser.browser.newContext();
    const page = await context.newPage();
    const res = await page.goto(`${kernel.url}timeline`);
    expect(res?.status()).toBe(401);
    expect(await page.textContent('h1')).toBe('Loom');
    expect(await page.$('form[action="/login"]')).not.toBeNull();
    await context.close();
  });

  it('logs no console error on any route', async () => {
    const session = (await kernel.gql(graphql(`query FirstTab { sessions(first: 1) { nodes { id } } }`))).data.sessions.nodes[0].id;
    for (const route of ['/', `/s/${encodeURIComponent(session)}`, '/timeline', '/usage', '/settings']) {
      const { page, errors, context } = await browser.open(kernel, route);
      await page.waitForSelector('.tab');
      await page.waitForLoadState('networkidle');
      expect(errors, route).toEqual([]);
      await context.close();
    }
  });
});

describe('the dashboard live', () => {
  let root: string;
  let stateDir: string;
  let kernel: TestKernel | undefined;
  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'loom-web-'));
    stateDir = mkdtempSync(join(tmpdir(), 'loom-web-state-'));
    mkdirSync(join(root, '-home-dev-demo'));
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(root, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('turns a session tab to needs-you when Claude Code asks for a permission', async () => {
    const now = <T extends object>(record: T): T => ({ ...record, timestamp: new Date().toISOString() });
    writeFileSync(
      join(root, '-home-dev-demo', 'w1.jsonl'),
      line(now(prompt('p1', null, 'clean the build'))) +
        line(now(assistant('a1', 'p1', [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'rm -rf build' } }], 'tool_use'))),
    );
    kernel = await startTestKernel(root, { stateDir });
    const { page, errors } = await browser.open(kernel, '/');
    const chip = page.locator('.tab[data-session="test:w1"] .chip');
    await chip.waitFor();
    expect(await chip.getAttribute('data-live')).toBe('UNKNOWN');
    const hook = (event: string, fields: object = {}) => {
      const input = JSON.stringify({ session_id: 'w1', hook_event_name: event, ...fields });
      expect(spawnSync('sh', [HOOK, event, stateDir], { input }).status).toBe(0);
    };
    hook('UserPromptSubmit');
    await page.waitForSelector('.tab[data-session="test:w1"] .chip[data-live="WORKING"]');
    await sleep(1000); // hook times have one-second resolution
    hook('Notification', { message: 'Claude needs your permission to use Bash', notification_type: 'permission_prompt' });
    await page.waitForSelector('.tab[data-session="test:w1"] .chip[data-live="PERMISSION"]');
    expect(await chip.textContent()).toBe('needs you');
    expect(errors).toEqual([]);
  });

  it('adds a new session as a tab live, and not the session of a subagent it starts', async () => {
    kernel ??= await startTestKernel(root, { stateDir });
    const { page, errors } = await browser.open(kernel, '/');
    await page.waitForSelector('.net-button');
    await sleep(500); // its subscriptions set up: what follows arrives live
    mkdirSync(join(root, '-home-dev-demo', 'w3', 'subagents'), { recursive: true });
    writeFileSync(join(root, '-home-dev-demo', 'w3.jsonl'), line(prompt('m1', null, 'a session that starts a subagent')));
    writeFileSync(
      join(root, '-home-dev-demo', 'w3', 'subagents', 'agent-s1.jsonl'),
      line(prompt('s1', null, 'the subagent task', { isSidechain: true, sessionId: 'w3', agentId: 's1' })),
    );
    await page.waitForSelector('.tab[data-session="test:w3"]');
    // sessionsChanged announced the subagent's session too, after its parent
    const subagent = await until(
      async () => (await kernel!.gql(graphql(`query Subagent { session(id: "test:agent-s1") { parent { id } } }`))).data.session,
      'the subagent indexed',
    );
    expect(subagent.parent!.id).toBe('test:w3');
    await sleep(500);
    const ids = await page.$$eval('.tab', (tabs) => tabs.map((t) => t.getAttribute('data-session')));
    expect(ids).toContain('test:w3');
    expect(ids).not.toContain('test:agent-s1');
    expect(errors).toEqual([]);
  });

  it('says the socket is down, then that the page may be stale, and resyncs without duplicate rows', async () => {
    writeFileSync(join(root, '-home-dev-demo', 'w0.jsonl'), line(prompt('o1', null, 'an older session')));
    kernel ??= await startTestKernel(root, { stateDir });
    const { page, errors } = await browser.open(kernel, '/');
    await page.waitForSelector('.tab');
    const before = await page.$$eval('.tab', (tabs) => tabs.length);
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as BannerLog).banners = seen;
      new MutationObserver(() => {
        const text = document.querySelector('.banner')?.textContent;
        if (text && seen[seen.length - 1] !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const { port } = kernel;
    await kernel.close();
    await page.waitForSelector('.banner >> text=reconnecting');
    writeFileSync(join(root, '-home-dev-demo', 'w2.jsonl'), line(prompt('q1', null, 'written while the kernel was down')));
    kernel = await startTestKernel(root, { port, stateDir });
    await page.waitForSelector('.tab[data-session="test:w2"]', { timeout: 15_000 });
    await page.waitForSelector('.banner', { state: 'detached' });
    expect(await page.evaluate(() => (window as BannerLog).banners)).toEqual([
      'Connection to the kernel lost: reconnecting…',
      'Reconnected: what you see may be stale until fresh data arrives.',
    ]);
    const ids = await page.$$eval('.tab', (tabs) => tabs.map((t) => t.getAttribute('data-session')));
    expect(ids).toHaveLength(before + 1);
    expect(new Set(ids).size).toBe(ids.length);
    // the socket drop itself is logged by Chromium as a failed WebSocket: nothing else may be
    expect(errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
  }, 40_000);
});
