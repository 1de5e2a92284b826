import { appendFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { configureRemote, FAST_LINKS, FIXTURES, startTestKernel, type TestKernel } from '../helpers/kernel';
import { assistant, line, prompt, say } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { until } from '../helpers/wait';

// The header's network popover over a hub kernel, a remote session's chat through the hub, and the
// "stale" badge on the sessions of a host that went down. Every kernel gets a temp HOME for SSH,
// so nothing touches the real ~/.ssh.

const LINK = graphql(`mutation LinkForTest($target: String!, $name: String) {
  linkHost(target: $target, name: $name) { name status { state reason } } }`);
const HOST_TRUST = graphql(`query HostTrust { hosts { name trust } }`);
/** nothing listens on port 1: linking it answers DOWN, UNREACHABLE */
const NOWHERE = 'root@127.0.0.1:1';

/** the colour the page gives an error, read from a probe styled as one */
const errorColour = (page: Page) =>
  page.evaluate(() => {
    const probe = document.body.appendChild(document.createElement('span'));
    probe.className = 'error';
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  });

let browser: TestBrowser;
beforeAll(async () => {
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS);
afterAll(() => browser?.close());

describe('the network popover', () => {
  let kernel: TestKernel;
  let home: string;
  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'loom-net-home-'));
    kernel = await startTestKernel(FIXTURES, { federation: { home, ...FAST_LINKS } });
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(home, { recursive: true, force: true });
  });

  const hosts = async () => (await kernel.gql(HOST_TRUST)).data.hosts;

  it('opens from the header with this machine listed, and closes with Escape', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    const button = page.locator('.net-button');
    await page.waitForSelector('.net-button >> text="1 host"');
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    await button.click();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    const panel = page.getByRole('dialog', { name: 'Network' });
    expect(await panel.locator('[data-host="test"]').textContent()).toContain('this machine');
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    expect(await button.getAttribute('aria-expanded')).toBe('false');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('net-button');
    expect(errors).toEqual([]);
  });

  it('links a host that cannot be reached through its form: the result and the row say the link failed, unreachable, with the message', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.click('.net-button');
    await page.getByLabel('SSH target').fill(NOWHERE);
    await page.getByLabel('Name', { exact: true }).fill('ghost');
    await page.getByRole('button', { name: 'Link', exact: true }).click();
    const result = page.locator('.net-result[data-state="DOWN"]');
    await result.waitFor();
    expect(await result.textContent()).toContain('ghost: link failed · unreachable');
    const row = page.locator('[data-host="ghost"][data-state="DOWN"][data-failed]');
    await row.waitFor();
    expect(await row.locator('.net-state').textContent()).toBe('link failed · unreachable');
    expect(await row.locator('.net-target').textContent()).toBe(NOWHERE);
    expect(await row.locator('.net-state').getAttribute('data-reason')).toBe('UNREACHABLE');
    expect(await row.locator('.net-message').textContent()).toMatch(/cannot reach 127\.0\.0\.1:1/);
    expect(await row.locator('.net-since').first().textContent()).toMatch(/^for \d+s$/);
    // an unreachable host has no key to accept
    expect(await page.getByLabel(/accept a new host key/).count()).toBe(0);
    await page.waitForSelector('.net-button >> text="2 hosts · 1 failed"');
    expect(await page.locator('.net-button .net-dot').getAttribute('class')).toBe('net-dot net-dot-down');
    expect((await hosts()).map((h) => h.name)).toEqual(['test', 'ghost']);
    expect(errors).toEqual([]);
  });

  it('shows a host linked through the API without a reload (hostsChanged)', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.click('.net-button');
    await page.waitForSelector('[data-host="ghost"]');
    const linked = await kernel.gql(LINK, { target: 'root@127.0.0.1:2', name: 'phantom' });
    expect(linked.data.linkHost.status).toEqual({ state: 'DOWN', reason: 'UNREACHABLE' });
    await page.waitForSelector('[data-host="phantom"][data-failed] >> text="link failed · unreachable"');
    await page.waitForSelector('.net-button >> text="3 hosts · 2 failed"');
    expect(errors).toEqual([]);
  });

  it('changes a host’s trust tier from its select', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.click('.net-button');
    const select = page.getByLabel('Trust of ghost');
    expect(await select.inputValue()).toBe('DIRECTED');
    await select.selectOption('ISOLATED');
    await until(async () => (await hosts()).find((h) => h.name === 'ghost')?.trust === 'ISOLATED', 'ghost to be ISOLATED');
    expect(await select.inputValue()).toBe('ISOLATED');
    // and back from the API: the select follows
    await kernel.gql(`mutation { setHostTrust(name: "ghost", trust: TRUSTED) { trust } }`);
    await until(async () => (await select.inputValue()) === 'TRUSTED', 'the select to show TRUSTED');
    expect(errors).toEqual([]);
  });

  it('removes a failed link from its row after a confirm step: the row goes, and the API lists it no more', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    await page.click('.net-button');
    const row = page.locator('[data-host="phantom"]');
    await row.getByRole('button', { name: 'Remove…' }).click();
    expect(await row.getByRole('group', { name: 'Remove the link to phantom?' }).textContent()).toContain('The hub stops trying it.');
    await row.getByRole('button', { name: 'Cancel' }).click();
    expect((await hosts()).map((h) => h.name)).toContain('phantom');
    await row.getByRole('button', { name: 'Remove…' }).click();
    await row.getByRole('button', { name: 'Remove', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    expect((await hosts()).map((h) => h.name)).toEqual(['test', 'ghost']);
    await page.waitForSelector('.net-button >> text="2 hosts · 1 failed"');
    expect(errors).toEqual([]);
  });
});

describe('the network button while the kernel is down', () => {
  let kernel: TestKernel;
  let stateDir: string;
  beforeAll(async () => {
    // our own state dir, so the kernel started again keeps the token the page signed in with
    stateDir = mkdtempSync(join(tmpdir(), 'loom-net-state-'));
    kernel = await startTestKernel(FIXTURES, { stateDir });
  });
  afterAll(async () => {
    await kernel?.close();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('says the kernel is unreachable, in red, within seconds of it stopping, and goes back to the hosts when it is back', async () => {
    const { page, errors } = await browser.open(kernel, '/');
    const button = page.locator('.net-button');
    await page.waitForSelector('.net-button >> text="1 host"');
    expect(await button.locator('.net-dot').getAttribute('class')).toBe('net-dot net-dot-up');

    const { port } = kernel;
    await kernel.close();
    await page.waitForSelector('.net-button[data-kernel="unreachable"] >> text="kernel unreachable: reconnecting…"', { timeout: 5_000 });
    expect(await button.locator('.net-dot').getAttribute('class')).toBe('net-dot net-dot-down');
    expect(await button.evaluate((b) => getComputedStyle(b).color)).toBe(await errorColour(page));
    await button.click();
    const panel = page.getByRole('dialog', { name: 'Network' });
    expect(await panel.locator('.error').textContent()).toBe('The kernel does not answer: the hosts below are as it last said. Reconnecting…');
    expect(await panel.locator('.net-hosts').getAttribute('data-stale')).toBe('true');

    kernel = await startTestKernel(FIXTURES, { port, stateDir });
    await page.waitForSelector('.net-button:not([data-kernel]) >> text="1 host"', { timeout: 15_000 });
    expect(await button.locator('.net-dot').getAttribute('class')).toBe('net-dot net-dot-up');
    expect(await panel.locator('.error').count()).toBe(0);
    expect(await panel.locator('.net-hosts').getAttribute('data-stale')).toBeNull();
    // the socket drop itself is logged by Chromium as a failed WebSocket: nothing else may be
    expect(errors.filter((e) => !/WebSocket|ERR_CONNECTION_REFUSED/.test(e))).toEqual([]);
  }, 40_000);
});

describe('the sessions of a host that goes down', () => {
  const roots: string[] = [];
  let sshd: TestSshd;
  let remote: TestKernel;
  let remoteRoot: string;
  let hub: TestKernel;

  /** a projects dir with one session, "<name>1" */
  const projects = (name: string) => {
    const root = mkdtempSync(join(tmpdir(), `loom-net-${name}-`));
    mkdirSync(join(root, '-home-dev-demo'));
    writeFileSync(join(root, '-home-dev-demo', `${name}1.jsonl`), line(prompt(`${name}-p1`, null, `a session on ${name}`)));
    roots.push(root);
    return root;
  };

  beforeAll(async () => {
    sshd = await startSshd();
    const remoteStateDir = mkdtempSync(join(tmpdir(), 'loom-net-remote-state-'));
    roots.push(remoteStateDir);
    remoteRoot = projects('gpu');
    remote = await startTestKernel(remoteRoot, { hostName: 'gpubox', stateDir: remoteStateDir });
    hub = await startTestKernel(projects('hub'), { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } });
    const target = `${sshd.user}@127.0.0.1:${sshd.port}`;
    configureRemote(hub, { name: 'gpu', target, stateDir: remoteStateDir });
    const linked = await hub.gql(LINK, { target, name: 'gpu' });
    expect(linked.data.linkHost.status?.state).toBe('UP');
  });
  afterAll(async () => {
    await hub?.close();
    await remote?.close();
    await sshd?.close();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });

  it("opens a remote session's chat through the hub, and shows a line appended on the remote live", async () => {
    const { page, errors } = await browser.open(hub, `/s/${encodeURIComponent('gpu:gpu1')}`);
    await page.locator('[data-sequence="1"]').waitFor();
    expect(await page.locator('.pane').textContent()).toContain('a session on gpu');
    appendFileSync(
      join(remoteRoot, '-home-dev-demo', 'gpu1.jsonl'),
      line(assistant('gpu-a1', 'gpu-p1', [say('an answer written on the gpu box')], 'end_turn')),
    );
    await page.getByText('an answer written on the gpu box').waitFor();
    expect(await page.getByText('an answer written on the gpu box').count()).toBe(1);
    expect(errors).toEqual([]);
  });

  it('marks the remote tab and lane stale once the host is DOWN, keeps them on a reload, and clears the mark and adds what began there meanwhile when it is back', async () => {
    const { page, errors } = await browser.open(hub, '/timeline');
    const tab = page.locator('.tab[data-session="gpu:gpu1"]');
    const lane = page.locator('.tl-lane[data-lane="gpu:gpu1"]');
    await tab.waitFor();
    await lane.waitFor();
    expect(await page.locator('.stale-badge').count()).toBe(0);

    await sshd.stop();
    const badge = tab.locator('.stale-badge');
    await badge.waitFor();
    expect(await badge.getAttribute('title')).toMatch(/^gpu is down since .+: what you see is its state then$/);
    expect(await tab.locator('.host').textContent()).toBe('gpu:');
    await lane.locator('.stale-badge').waitFor();
    expect(await page.locator('.tab[data-session="laptop:hub1"] .stale-badge').count()).toBe(0);

    // a page opened while the host is down still lists its sessions, marked
    await page.reload();
    await tab.locator('.stale-badge').waitFor();
    // a session begun there meanwhile, which the hub cannot see yet
    writeFileSync(join(remoteRoot, '-home-dev-demo', 'gpu2.jsonl'), line(prompt('gpu2-p1', null, 'begun while the hub could not see it')));
    await until(async () => (await remote.gql(graphql(`{ session(id: "gpubox:gpu2") { id } }`))).data.session, 'the remote indexing it');

    await sshd.start();
    await tab.locator('.stale-badge').waitFor({ state: 'detached', timeout: 15_000 });
    // it shows up without a reload, though it never changes again
    await page.locator('.tab[data-session="gpu:gpu2"]').waitFor();
    expect(errors).toEqual([]);
  }, 40_000);

  it('says a host that was up and went away is down, not a failed link, and offers to unlink it', async () => {
    const { page, errors } = await browser.open(hub, '/');
    await page.click('.net-button');
    const row = page.locator('[data-host="gpu"]');
    await page.locator('[data-host="gpu"][data-state="UP"]').waitFor();
    await sshd.stop();
    await page.locator('[data-host="gpu"][data-state="DOWN"]').waitFor();
    expect(await row.getAttribute('data-failed')).toBeNull();
    expect(await row.locator('.net-state').textContent()).toBe('down · unreachable');
    expect(await row.getByRole('button', { name: 'Unlink…' }).count()).toBe(1);
    expect(await row.getByRole('button', { name: 'Remove…' }).count()).toBe(0);
    await page.waitForSelector('.net-button >> text="2 hosts · 1 down"');
    await sshd.start();
    await page.locator('[data-host="gpu"][data-state="UP"]').waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
  }, 40_000);
});
