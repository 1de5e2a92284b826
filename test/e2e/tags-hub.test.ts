import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { BROWSER_START_TIMEOUT_MS, startBrowser, type TestBrowser } from '../helpers/browser';
import { configureRemote, FAST_LINKS, startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { stripShows } from '../helpers/tab-strip';
import { until } from '../helpers/wait';

// Tags and saved views of a linked host, made from a page that talks to a hub: the hub reaches the
// host's kernel over a real sshd, and what the page makes lives on that host, as its own kernel's
// API says.

const LINK = graphql(`mutation LinkForTagsHub($target: String!) { linkHost(target: $target, name: "gpu", trust: DIRECTED) { status { state } } }`);
const VIEWS = graphql(`query HubViews($host: String) { views(host: $host) { tags { id name color memberIds } views { name tagIds order } } }`);
const CREATE = graphql(`mutation HubCreate($host: String, $name: String!) { createTag(host: $host, name: $name, color: "#0e7490") { seq } }`);

let root: string;
let sshd: TestSshd;
let remote: TestKernel;
let hub: TestKernel;
let browser: TestBrowser;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-tags-hub-'));
  const write = (dir: string, key: string, text: string) => {
    mkdirSync(join(root, dir, '-home-dev-work'), { recursive: true });
    writeFileSync(join(root, dir, '-home-dev-work', `${key}.jsonl`), line(prompt(`${key}1`, null, text)));
  };
  write('gpu-projects', 't1', 'train the model');
  write('hub-projects', 'h1', 'write the report');
  sshd = await startSshd();
  remote = await startTestKernel(join(root, 'gpu-projects'), { hostName: 'gpubox', stateDir: join(root, 'gpu-state') });
  hub = await startTestKernel(join(root, 'hub-projects'), { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } });
  const target = `${sshd.user}@127.0.0.1:${sshd.port}`;
  configureRemote(hub, { name: 'gpu', target, stateDir: join(root, 'gpu-state') });
  expect((await hub.gql(LINK, { target })).data.linkHost.status?.state).toBe('UP');
  browser = await startBrowser();
}, BROWSER_START_TIMEOUT_MS + 60_000);
afterAll(async () => {
  await browser?.close();
  await hub?.close();
  await remote?.close();
  await sshd?.close();
  rmSync(root, { recursive: true, force: true });
});

/** The linked host's tags and views, as its own kernel says. */
const onRemote = async () => (await remote.gql(VIEWS, {})).data.views;

describe('tags of a linked host, from a page on the hub', () => {
  it('creates a tag on the linked host, tags its session, groups the strip by it, and the tag lives on that host', async () => {
    const { page, errors } = await browser.open(hub, '/settings');
    const gpu = page.getByRole('region', { name: 'Tags on gpu' });
    await gpu.getByRole('heading', { name: 'gpu' }).waitFor();
    await gpu.getByRole('textbox', { name: 'New tag name on gpu' }).fill('training');
    await gpu.getByLabel('New tag colour on gpu').fill('#aa3366');
    await gpu.getByRole('button', { name: 'Add tag' }).click();
    await gpu.locator('.tag-row', { hasText: 'training' }).waitFor();
    expect((await onRemote()).tags).toEqual([{ id: expect.stringMatching(/^gpubox:/), name: 'training', color: '#aa3366', memberIds: [] }]);
    expect((await hub.gql(VIEWS, {})).data.views.tags).toEqual([]);

    await page.goto(new URL('/s/gpu:t1', hub.url).toString());
    await page.getByRole('button', { name: '+ tag' }).click();
    await page.getByRole('combobox', { name: 'Existing tag' }).selectOption({ label: 'training' });
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    await page.locator('.tab[data-session="gpu:t1"] .tag-dot').waitFor();
    await page.getByRole('combobox', { name: 'Group tabs by' }).selectOption('tag');
    await stripShows(page, ['# gpu:training', 'gpu:t1', '# untagged', 'laptop:h1'], "the strip grouped by the linked host's tag");
    expect((await onRemote()).tags[0].memberIds).toEqual(['gpubox:t1']);
    expect(errors).toEqual([]);
  });

  it("reorders the linked host's tags from the page, on that host", async () => {
    await hub.gql(CREATE, { host: 'gpu', name: 'eval' });
    const { page, errors } = await browser.open(hub, '/settings');
    const gpu = page.getByRole('region', { name: 'Tags on gpu' });
    await gpu.locator('.tag-row', { hasText: 'eval' }).waitFor();
    await gpu.getByRole('button', { name: 'Move eval up' }).click();
    await until(async () => (await onRemote()).tags.map((t) => t.name).join() === 'eval,training', 'the new order on the linked host');
    await until(async () => (await gpu.locator('.tag-name').allTextContents()).join() === 'eval,training', 'the new order shown');
    expect(errors).toEqual([]);
  });

  it('saves a view of the linked host’s tag on that host, and lists it under the host', async () => {
    const { page, errors } = await browser.open(hub, '/');
    await page.locator('.lens-tags summary').click();
    await page.getByRole('checkbox', { name: 'gpu:training' }).check();
    await stripShows(page, ['gpu:t1'], "the linked host's tagged session only");
    await page.getByRole('button', { name: 'Save…' }).click();
    expect(await page.getByRole('combobox', { name: 'Keep the view on' }).inputValue()).toBe('gpu');
    await page.getByRole('textbox', { name: 'View name' }).fill('training runs');
    await page.getByRole('button', { name: 'Save view' }).click();
    await until(async () => (await onRemote()).views.length === 1, 'the view on the linked host');
    const { tags, views } = await onRemote();
    expect(views).toEqual([{ name: 'training runs', tagIds: [tags.find((t) => t.name === 'training')!.id], order: 'RECENT' }]);
    expect((await hub.gql(VIEWS, {})).data.views.views).toEqual([]);
    const picker = page.getByRole('combobox', { name: 'Saved view' });
    // The page hears of the saved view from the hub, after the linked host has it.
    await until(
      async () => (await picker.locator('optgroup[label="gpu"] option').allTextContents()).join() === 'training runs',
      'the view listed under the host',
    );
    await until(async () => (await picker.locator('option:checked').textContent()) === 'training runs', 'the saved view chosen');
    expect(errors).toEqual([]);
  });
});
