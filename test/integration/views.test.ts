import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { configureRemote, FAST_LINKS, iterate, startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { until } from '../helpers/wait';

// Tags, saved views and Loom names over real HTTP and WebSockets: each edit acknowledged with the
// seq it produced, a stale whole write refused, the cap and the name collision refused, a restart
// keeping everything; through a hub over a real sshd, each host's tags stay on that host.

const CREATE = graphql(
  `mutation ($host: String, $name: String!, $color: String!) { createTag(host: $host, name: $name, color: $color) { seq tag { id name color } } }`,
);
const TAG = graphql(`mutation ($tag: ID!, $session: ID!) { tagSession(tagId: $tag, sessionId: $session) { seq tag { id memberIds } } }`);
const RENAME_SESSION = graphql(`mutation ($session: ID!, $name: String!) { renameSession(sessionId: $session, name: $name) { seq } }`);
const ORDER = graphql(
  `mutation ($host: String, $ids: [ID!]!, $seq: Int!) { setTagOrder(host: $host, tagIds: $ids, expectedSeq: $seq) { seq views { tags { name } } } }`,
);
const SAVE_VIEW = graphql(`
  mutation ($seq: Int!, $tags: [ID!]!) {
    saveView(view: { name: "api work", filter: "api", tagIds: $tags, order: NAME }, expectedSeq: $seq) { seq view { id name filter tagIds order } }
  }
`);
const VIEWS = graphql(`query ($host: String) { views(host: $host) { host { name } seq tags { id name color memberIds } views { name filter } } }`);
const SESSION = graphql(`query ($id: ID!) { session(id: $id) { name loomName tags { name } } }`);
const SESSIONS_CHANGED = graphql(`subscription { sessionsChanged { kind session { id loomName } } }`);
const CHANGED = graphql(`subscription { viewsChanged { seq tags { name } } }`);

let root: string;
let kernel: TestKernel;
const S1 = 'test:s1';
const S2 = 'test:s2';

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-views-'));
  const project = join(root, 'projects', '-home-dev-api');
  mkdirSync(project, { recursive: true });
  writeFileSync(join(project, 's1.jsonl'), line(prompt('p1', null, 'fix the api', { sessionId: 's1' })));
  writeFileSync(join(project, 's2.jsonl'), line(prompt('q1', null, 'write the docs', { sessionId: 's2' })));
  kernel = await startTestKernel(join(root, 'projects'), { stateDir: join(root, 'state') });
});
afterAll(async () => {
  await kernel?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('tags and views on one kernel', () => {
  it('acknowledges each edit with the seq it produced, and the sessions carry their tags and Loom names', async () => {
    const start = (await kernel.gql(VIEWS)).data.views.seq;
    const work = (await kernel.gql(CREATE, { name: 'work', color: '#3366cc' })).data.createTag;
    expect(work).toEqual({ seq: start + 1, tag: { id: expect.stringMatching(/^test:/), name: 'work', color: '#3366cc' } });
    const tagged = (await kernel.gql(TAG, { tag: work.tag!.id, session: S1 })).data.tagSession;
    expect(tagged).toEqual({ seq: start + 2, tag: { id: work.tag!.id, memberIds: [S1] } });
    expect((await kernel.gql(RENAME_SESSION, { session: S1, name: 'the api fix' })).data.renameSession.seq).toBe(start + 3);
    expect((await kernel.gql(SESSION, { id: S1 })).data.session).toEqual({ name: 'fix the api', loomName: 'the api fix', tags: [{ name: 'work' }] });
    expect((await kernel.gql(SESSION, { id: S2 })).data.session).toEqual({ name: 'write the docs', loomName: null, tags: [] });
  });

  it('refuses a whole write made from a seq the store has moved past with CONFLICT, and takes it from the current one', async () => {
    const home = (await kernel.gql(CREATE, { name: 'home', color: '#22aa55' })).data.createTag;
    const { tags } = (await kernel.gql(VIEWS)).data.views;
    await kernel.gql(TAG, { tag: home.tag!.id, session: S2 }); // someone else's edit, after `home`
    const order = tags.map((t) => t.id).reverse();
    const stale = await kernel.gql(ORDER, { ids: order, seq: home.seq });
    expect(stale.errors?.[0]).toMatchObject({ message: expect.stringMatching(/changed since seq/), extensions: { code: 'CONFLICT' } });
    const now = (await kernel.gql(VIEWS)).data.views.seq;
    expect((await kernel.gql(ORDER, { ids: order, seq: now })).data.setTagOrder).toEqual({
      seq: now + 1,
      views: { tags: [{ name: 'home' }, { name: 'work' }] },
    });
    const saved = (await kernel.gql(SAVE_VIEW, { seq: now + 1, tags: [home.tag!.id] })).data.saveView;
    expect(saved).toMatchObject({ seq: now + 2, view: { name: 'api work', filter: 'api', tagIds: [home.tag!.id], order: 'NAME' } });
  });

  it('refuses a name a tag of the host has, and says which', async () => {
    const { errors } = await kernel.gql(CREATE, { name: 'WORK', color: '#000000' });
    expect(errors?.[0]).toMatchObject({ message: 'a tag named "work" exists on this host', extensions: { code: 'CONFLICT' } });
  });

  it('refuses a tag id that is not one, and a colour that is not #rrggbb, as bad input', async () => {
    expect((await kernel.gql(TAG, { tag: 'nonsense', session: S1 })).errors?.[0].extensions?.code).toBe('BAD_USER_INPUT');
    expect((await kernel.gql(CREATE, { name: 'red', color: 'red' })).errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  it('tells a subscriber each write', async () => {
    const frames = iterate(kernel.ws(), CHANGED, {});
    const first = (await frames.next()).value?.data?.viewsChanged;
    await kernel.gql(CREATE, { name: 'later', color: '#000000' });
    const next = (await frames.next()).value?.data?.viewsChanged;
    await frames.return?.();
    expect(next?.seq).toBe((first?.seq ?? 0) + 1);
    expect(next?.tags.map((t) => t.name)).toContain('later');
  });

  it('announces a renamed session on sessionsChanged, so every page listing it shows the new name', async () => {
    const changes = iterate(kernel.ws(), SESSIONS_CHANGED, {});
    const seen: unknown[] = [];
    const reading = (async () => {
      for await (const frame of changes) seen.push(frame.data?.sessionsChanged);
    })();
    // renamed until the subscription, opened meanwhile, reports it
    await until(async () => {
      await kernel.gql(RENAME_SESSION, { session: S2, name: 'the docs' });
      return seen.length > 0;
    }, 'a rename on sessionsChanged');
    await changes.return?.();
    await reading;
    expect(seen[0]).toEqual({ kind: 'UPDATED', session: { id: S2, loomName: 'the docs' } });
    await kernel.gql(RENAME_SESSION, { session: S2, name: '' });
  });

  it('keeps everything across a restart', async () => {
    const before = (await kernel.gql(VIEWS)).data.views;
    await kernel.close();
    kernel = await startTestKernel(join(root, 'projects'), { stateDir: join(root, 'state') });
    expect((await kernel.gql(VIEWS)).data.views).toEqual(before);
    expect((await kernel.gql(SESSION, { id: S1 })).data.session?.loomName).toBe('the api fix');
  });
});

describe('tags through a hub', () => {
  let sshd: TestSshd;
  let remote: TestKernel;
  let hub: TestKernel;
  beforeAll(async () => {
    sshd = await startSshd();
    const projects = join(root, 'gpu-projects', '-home-dev-train');
    mkdirSync(projects, { recursive: true });
    writeFileSync(join(projects, 't1.jsonl'), line(prompt('r1', null, 'train the model', { sessionId: 't1' })));
    remote = await startTestKernel(join(root, 'gpu-projects'), { hostName: 'gpubox', stateDir: join(root, 'gpu-state') });
    mkdirSync(join(root, 'hub-projects'));
    hub = await startTestKernel(join(root, 'hub-projects'), {
      hostName: 'laptop',
      stateDir: join(root, 'hub-state'),
      federation: { home: sshd.home, ...FAST_LINKS },
    });
    configureRemote(hub, { name: 'gpu', target: `${sshd.user}@127.0.0.1:${sshd.port}`, stateDir: join(root, 'gpu-state') });
    const link = graphql(`mutation ($target: String!) { linkHost(target: $target, name: "gpu", trust: DIRECTED) { status { state } } }`);
    expect((await hub.gql(link, { target: `${sshd.user}@127.0.0.1:${sshd.port}` })).data.linkHost.status?.state).toBe('UP');
  }, 60_000);
  afterAll(async () => {
    await hub?.close();
    await remote?.close();
    await sshd?.close();
  });

  it("creates and fills a tag on the linked host, where it stays: the host's own kernel has it, the hub's does not", async () => {
    const created = (await hub.gql(CREATE, { host: 'gpu', name: 'training', color: '#aa3366' })).data.createTag;
    expect(created.tag?.id).toMatch(/^gpu:/);
    expect((await hub.gql(TAG, { tag: created.tag!.id, session: 'gpu:t1' })).data.tagSession.tag?.memberIds).toEqual(['gpu:t1']);
    expect((await hub.gql(VIEWS, { host: 'gpu' })).data.views).toMatchObject({ host: { name: 'gpu' }, tags: [{ name: 'training', memberIds: ['gpu:t1'] }] });
    expect((await remote.gql(VIEWS)).data.views.tags).toEqual([
      { id: expect.stringMatching(/^gpubox:/), name: 'training', color: '#aa3366', memberIds: ['gpubox:t1'] },
    ]);
    expect((await hub.gql(VIEWS)).data.views.tags).toEqual([]);
    expect((await hub.gql(SESSION, { id: 'gpu:t1' })).data.session?.tags).toEqual([{ name: 'training' }]);
  });

  it("refuses to put a host's session in another host's tag", async () => {
    const local = (await hub.gql(CREATE, { name: 'mine', color: '#000000' })).data.createTag;
    const { errors } = await hub.gql(TAG, { tag: local.tag!.id, session: 'gpu:t1' });
    expect(errors?.[0]).toMatchObject({
      message: "a tag of laptop holds only laptop's sessions; this session is on gpu",
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('refuses edits on an isolated host before anything is sent', async () => {
    const trust = graphql(`mutation { setHostTrust(name: "gpu", trust: ISOLATED) { trust } }`);
    await hub.gql(trust);
    const { errors } = await hub.gql(CREATE, { host: 'gpu', name: 'nope', color: '#000000' });
    expect(errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await remote.gql(VIEWS)).data.views.tags.map((t) => t.name)).toEqual(['training']);
  });
});
