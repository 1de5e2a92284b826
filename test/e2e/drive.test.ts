import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEND_PROMPT, START_SESSION } from '../../web/src/drive/queries';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser, type TestPage } from '../helpers/browser';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { installHooks, removeHookedDir } from '../helpers/stand-in-claude';
import { until } from '../helpers/wait';

// Driving sessions from the dashboard in Chromium: the composer under the chat (a send shows at
// once as a pending bubble and becomes the atom, once), Interrupt, Resume, a dropped prompt's
// Retry, a prompt queued for a session a terminal holds, and the "New session" dialog. The kernel
// runs the stand-in `claude` (test/stand-ins/claude-sdk.mjs) through the real Agent SDK: it
// writes real-shaped transcripts under the projects tree the kernel reads, answers
// "Echo: <prompt>", and `[slow:<ms>]` keeps a turn busy.

const STAND_IN = join(import.meta.dirname, '..', 'stand-ins', 'claude-sdk.mjs');

let browser: TestBrowser;
let root: string;
let workDir: string;
let kernel: TestKernel;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-drive-e2e-'));
  workDir = join(root, 'work', 'api');
  mkdirSync(workDir, { recursive: true });
  const projects = join(root, 'claude', 'projects');
  // a terminal session that got a prompt from Loom through its Stop hook
  mkdirSync(join(projects, '-home-dev-demo'), { recursive: true });
  writeFileSync(
    join(projects, '-home-dev-demo', 'terminal.jsonl'),
    [
      prompt('t1', null, 'fix the build'),
      assistant('t2', 't1', [say('Fixed.')], 'end_turn'),
      prompt('t3', 't2', 'Stop hook feedback:\n[loom:5f0c2a6e-93d4-4b8e-9a51-2c7d1e0f4b11] now add a test for it', { isMeta: true }),
      assistant('t4', 't3', [say('Test added.')], 'end_turn'),
    ]
      .map(line)
      .join(''),
  );
  // the person accepted the work dir at a terminal once (Claude Code's record): Loom starts sessions there
  writeFileSync(join(root, 'claude', '.claude.json'), JSON.stringify({ projects: { [workDir]: { hasTrustDialogAccepted: true } } }));
  // the stand-in writes where Claude Code would: $CLAUDE_CONFIG_DIR/projects
  process.env.CLAUDE_CONFIG_DIR = join(root, 'claude');
  [browser, kernel] = await Promise.all([startBrowser(), startTestKernel(projects, { stateDir: join(root, 'state'), claudePath: STAND_IN })]);
}, BROWSER_START_TIMEOUT_MS + 30_000);
afterAll(async () => {
  await browser?.close();
  await kernel?.close();
  delete process.env.CLAUDE_CONFIG_DIR;
  rmSync(root, { recursive: true, force: true });
});

const HOLDER = graphql(`query DriveTestHolder($id: ID!) { session(id: $id) { holder driving } }`);

const holder = async (id: string) => (await kernel.gql(HOLDER, { id })).data?.session ?? null;

let started = 0;
/** Starts a session in the work dir through the API; its id, once the kernel has read its transcript. */
async function start(first: string): Promise<string> {
  const res = await kernel.gql(START_SESSION, { dir: workDir, prompt: first, key: `e2e-start-${++started}`, host: null, model: null, mode: null });
  expect(res.errors).toBeUndefined();
  const id = res.data.startSession.sessionId;
  await until(async () => (await holder(id)) !== null, `session ${id} read`);
  return id;
}

/** Opens a session's chat, ready to type into. */
async function openChat(id: string): Promise<TestPage> {
  const opened = await browser.open(kernel, `/s/${encodeURIComponent(id)}`);
  opened.page.setDefaultTimeout(15_000);
  await opened.page.waitForSelector('.chat-row[data-sequence]');
  await opened.page.waitForSelector('.composer textarea:not([disabled])');
  return opened;
}

/** The chat's rows that say exactly this (a message's paragraphs). */
const rowsSaying = (page: Page, text: string) => page.locator('.chat-row .md > p').filter({ hasText: new RegExp(`^${text}$`) });

/**
 * Counts, from now on, every element of the page that says `text` (chat rows and pending bubbles
 * both) at each change of the DOM, and keeps the most seen at once: a prompt shown twice, even
 * for a frame, is caught.
 */
async function watchCopies(page: Page, text: string): Promise<() => Promise<number>> {
  await page.evaluate((text) => {
    const w = window as unknown as { __copies: number };
    w.__copies = 0;
    const count = () => {
      const n = [...document.querySelectorAll('.chat-row .md > p, .pending-prompt .md > p')].filter((p) => p.textContent === text).length;
      w.__copies = Math.max(w.__copies, n);
    };
    new MutationObserver(count).observe(document.body, { childList: true, subtree: true, characterData: true });
    count();
  }, text);
  return () => page.evaluate(() => (window as unknown as { __copies: number }).__copies);
}

/** Holds the page's next mutation of this name until the returned function lets it go. */
async function holdMutation(page: Page, name: string): Promise<() => Promise<void>> {
  let held: Route | null = null;
  let release = false;
  await page.route('**/graphql', async (route) => {
    if (release || !route.request().postData()?.includes(`mutation ${name}`)) return route.continue();
    held = route;
  });
  return async () => {
    release = true;
    await until(() => held !== null, `the ${name} request`);
    await held!.continue();
  };
}

describe('the composer', () => {
  it('shows a prompt at once as pending, before the kernel answers, and then as the atom, once', { timeout: 40_000 }, async () => {
    // long enough to still run once the kernel has read it and the page is open
    const id = await start('[slow:12000] build it');
    const { page, errors, context } = await openChat(id);
    // the turn runs: Interrupt shows, and a prompt waits for the next step
    await page.getByRole('button', { name: 'Interrupt' }).waitFor();
    const copies = await watchCopies(page, 'also add tests');
    const letGo = await holdMutation(page, 'SendPrompt');

    await page.getByRole('textbox', { name: 'Prompt' }).fill('also add tests');
    await page.keyboard.press('Enter');
    // the kernel has not answered: the bubble is the page's own
    const bubble = page.locator('.pending-prompt', { hasText: 'also add tests' });
    expect(await bubble.getAttribute('data-state')).toBe('SENDING');
    expect(await page.getByRole('textbox', { name: 'Prompt' }).inputValue()).toBe('');
    await letGo();
    // Claude Code has it, and reads it when the running step ends
    await page.waitForSelector('.pending-prompt[data-state="PENDING"]');

    await bubble.waitFor({ state: 'detached' });
    expect(await rowsSaying(page, 'also add tests').count()).toBe(1);
    await rowsSaying(page, 'Echo: also add tests').waitFor();
    expect(await page.locator('.pending-prompt').count()).toBe(0);
    expect(await copies()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('interrupts the running turn', async () => {
    const id = await start('[slow:20000] a long job');
    const { page, errors, context } = await openChat(id);
    await page.getByRole('button', { name: 'Interrupt' }).click();
    await page.locator('.chat-row', { hasText: '[Request interrupted by user' }).first().waitFor();
    await page.getByRole('button', { name: 'Interrupt' }).waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('resumes a session nothing holds: the button says Resume, and the prompt goes on in the same session', { timeout: 40_000 }, async () => {
    const id = await start('first part');
    await until(async () => (await holder(id))?.holder === 'LOOM', 'Loom running the session');
    const { page, errors, context } = await openChat(id);
    await rowsSaying(page, 'Echo: first part').waitFor();
    await kernel.gql(SEND_PROMPT, { id, text: '[die]', key: 'e2e-die' }); // the process ends: nothing holds the session
    const send = page.locator('.composer-send');
    await until(async () => (await send.textContent()) === 'Resume', 'the Resume button');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('second part');
    await send.click();
    await page.locator('.pending-prompt', { hasText: 'second part' }).waitFor();
    await rowsSaying(page, 'Echo: second part').waitFor();
    await page.locator('.pending-prompt').waitFor({ state: 'detached' });
    expect(await rowsSaying(page, 'second part').count()).toBe(1);
    await until(async () => (await send.textContent()) === 'Send', 'the Send button, now that Loom runs the session');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says a prompt was not delivered when the process died holding it; Dismiss takes it away, Retry sends it again', { timeout: 60_000 }, async () => {
    const id = await start('[slow:15000] work');
    const { page, errors, context } = await openChat(id);
    // sent mid-turn, the three wait for the next step; the first ends the process there
    await page.getByRole('button', { name: 'Interrupt' }).waitFor();
    const box = page.getByRole('textbox', { name: 'Prompt' });
    await box.fill('[die]');
    await box.press('Enter');
    await box.fill('never read');
    await box.press('Enter');
    await box.fill('nor this');
    await box.press('Enter');
    const dropped = page.locator('.pending-prompt[data-state="DROPPED"]');
    await dropped.filter({ hasText: 'never read' }).waitFor();
    expect(await dropped.filter({ hasText: 'never read' }).textContent()).toMatch(/not delivered: Claude Code (stopped|ended) before reading it/);

    await dropped.filter({ hasText: 'nor this' }).getByRole('button', { name: 'Dismiss' }).click();
    await dropped.filter({ hasText: 'nor this' }).waitFor({ state: 'detached' });
    // nothing holds the session now: Retry resumes it with the prompt
    await until(async () => (await page.locator('.composer-send').textContent()) === 'Resume', 'the Resume button');
    await dropped.filter({ hasText: 'never read' }).getByRole('button', { name: 'Retry' }).click();
    await rowsSaying(page, 'Echo: never read').waitFor();
    await page.locator('.pending-prompt').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows a prompt Loom delivered through a terminal session's Stop hook as the text that was sent", async () => {
    const { page, errors, context } = await browser.open(kernel, '/s/test:terminal');
    await page.waitForSelector('.msg-via');
    const row = page.locator('.chat-row', { has: page.locator('.msg-via') });
    expect(await row.locator('.md').textContent()).toBe('now add a test for it');
    expect(await row.locator('.msg-via').textContent()).toBe('sent from Loom');
    expect(await page.locator('.chat-row', { hasText: 'Stop hook feedback' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("fits a phone's screen: nothing scrolls sideways, and Send takes a thumb", async () => {
    const id = await start('on the phone');
    const phone = await browser.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    try {
      const page = await phone.newPage();
      const url = new URL(`/s/${encodeURIComponent(id)}`, kernel.url);
      url.searchParams.set('token', kernel.token);
      await page.goto(url.toString());
      await page.waitForSelector('.composer textarea:not([disabled])', { timeout: 15_000 });
      const send = (await page.locator('.composer-send').boundingBox())!;
      expect(send.x + send.width).toBeLessThanOrEqual(390);
      expect(send.height).toBeGreaterThanOrEqual(32);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      expect(await page.$eval('.pane', (el) => el.scrollWidth <= el.clientWidth)).toBe(true);
      await page.getByRole('textbox', { name: 'Prompt' }).fill('sent from a phone');
      await page.locator('.composer-send').tap();
      await page.locator('.chat-row .md > p', { hasText: /^Echo: sent from a phone$/ }).waitFor({ timeout: 15_000 });
    } finally {
      await phone.close();
    }
  });
});

describe('the New session dialog', () => {
  it('starts Claude Code in a directory with a first prompt and opens its chat', async () => {
    const { page, errors, context } = await browser.open(kernel, '/');
    page.setDefaultTimeout(15_000);
    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.waitFor();
    // the directories this host's sessions ran in are suggested
    const suggested = () => dialog.locator('datalist option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    await until(async () => (await suggested()).includes('/home/dev/demo'), "the terminal session's directory suggested");
    expect(await dialog.getByRole('combobox', { name: 'Host' }).inputValue()).toBe('test');
    await dialog.getByRole('combobox', { name: 'Directory' }).fill(workDir);
    await dialog.getByRole('textbox', { name: 'First prompt' }).fill('hello from the dialog');
    await dialog.getByRole('combobox', { name: 'Permission mode' }).selectOption('ACCEPT_EDITS');
    // answered as when Claude Code named the session before the kernel read its transcript: the
    // chat waits for the session list to have it
    await page.route('**/graphql', async (route) => {
      if (!route.request().postData()?.includes('mutation StartSession')) return route.continue();
      const response = await route.fetch();
      const body = await response.json();
      body.data.startSession.session = null;
      await route.fulfill({ response, json: body });
    });
    await dialog.getByRole('button', { name: 'Start' }).click();

    await page.waitForURL(/\/s\//);
    await rowsSaying(page, 'Echo: hello from the dialog').waitFor();
    expect(await rowsSaying(page, 'hello from the dialog').count()).toBe(1);
    const id = decodeURIComponent(new URL(page.url()).pathname.slice('/s/'.length));
    await page.locator(`.tab.active[data-session="${id}"]`).waitFor();
    expect(await dialog.count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('says why a directory is refused, and keeps what was typed', async () => {
    const { page, errors, context } = await browser.open(kernel, '/');
    page.setDefaultTimeout(15_000);
    await page.getByRole('button', { name: 'New session' }).click();
    const dialog = page.getByRole('dialog', { name: 'New session' });
    await dialog.getByRole('combobox', { name: 'Directory' }).fill(join(root, 'nowhere'));
    await dialog.getByRole('textbox', { name: 'First prompt' }).fill('anything');
    await dialog.getByRole('button', { name: 'Start' }).click();
    expect(await dialog.getByRole('alert').textContent()).toMatch(/is not a directory on this machine/);
    expect(await dialog.getByRole('textbox', { name: 'First prompt' }).inputValue()).toBe('anything');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the composer on a session a terminal holds', () => {
  // the "terminal" is the stand-in run by the test, with Loom's hooks in its settings: Loom never
  // writes into it, its Stop hook takes the queued prompt at the turn's end
  let home: string;
  let terminalKernel: TestKernel;
  let terminal: ChildProcessWithoutNullStreams;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'loom-drive-terminal-e2e-'));
    const site = join(home, 'work', 'site');
    const claudeDir = join(home, 'claude');
    mkdirSync(site, { recursive: true });
    mkdirSync(join(claudeDir, 'projects'), { recursive: true });
    installHooks(claudeDir, join(home, 'state'));
    terminalKernel = await startTestKernel(join(claudeDir, 'projects'), { stateDir: join(home, 'state') });
    terminal = spawn(process.execPath, [STAND_IN, '--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'], {
      cwd: site,
      env: { ...process.env, CLAUDE_CONFIG_DIR: claudeDir },
    });
  });
  afterAll(async () => {
    terminal?.kill();
    await terminalKernel?.close();
    removeHookedDir(home);
  });

  it('queues a prompt, saying it waits for the turn to end, then shows it once, as sent from Loom', { timeout: 40_000 }, async () => {
    // the person types at the terminal
    terminal.stdin.write(`${JSON.stringify({ type: 'user', message: { role: 'user', content: '[slow:8000] deploy the site' }, parent_tool_use_id: null })}\n`);
    const SESSIONS = graphql(`query DriveTestSessions { sessions { nodes { id holder } } }`);
    const session = await until(
      async () => (await terminalKernel.gql(SESSIONS)).data.sessions.nodes.find((s) => s.holder === 'TERMINAL'),
      'the terminal session',
    );
    const { page, errors, context } = await browser.open(terminalKernel, `/s/${encodeURIComponent(session.id)}`);
    page.setDefaultTimeout(20_000);
    await page.waitForSelector('.composer[data-holder="TERMINAL"] textarea:not([disabled])');
    expect(await page.locator('.composer-note').textContent()).toMatch(/A terminal holds this session/);
    const copies = await watchCopies(page, 'check the logs too');

    await page.getByRole('textbox', { name: 'Prompt' }).fill('check the logs too');
    await page.keyboard.press('Enter');
    const queued = page.locator('.pending-prompt[data-state="QUEUED"]', { hasText: 'check the logs too' });
    expect(await queued.locator('.pending-state').textContent()).toMatch(/^queued: .*turn to end/);

    await queued.waitFor({ state: 'detached' });
    await page.locator('.pending-prompt').waitFor({ state: 'detached' });
    const row = page.locator('.chat-row', { has: page.locator('.md > p', { hasText: /^check the logs too$/ }) });
    expect(await row.locator('.msg-via').textContent()).toBe('sent from Loom');
    expect(await copies()).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
