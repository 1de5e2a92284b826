import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { configureRemote, FAST_LINKS, startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';
import { startSshd, type TestSshd } from '../helpers/sshd';
import { askPermission, installHooks, removeHookedDir } from '../helpers/stand-in-claude';
import { until } from '../helpers/wait';

// A blocked session on a linked host, answered from the hub through a real OpenSSH sshd: the
// host's trust tier decides, on the hub, before anything is sent.

const PENDING = graphql(`{ permissionRequests { id toolName state } }`);
const ALLOW = graphql(`mutation ($id: ID!, $key: String!) { allowTool(requestId: $id, idempotencyKey: $key) { id state answeredBy } }`);
const ACTIONS = graphql(`{ actions { actor action host requestId result message } }`);
const LINK = graphql(`mutation ($target: String!) { linkHost(target: $target, name: "gpu") { status { state } } }`);
const TRUST = graphql(`mutation ($trust: TrustTier!) { setHostTrust(name: "gpu", trust: $trust) { trust } }`);

let sshd: TestSshd;
let root: string;
let remote: TestKernel;
let hub: TestKernel;
let transcript: string;
const claudeDir = () => join(root, 'claude');

beforeAll(async () => {
  sshd = await startSshd();
  root = mkdtempSync(join(tmpdir(), 'loom-answers-hub-'));
  const project = join(root, 'gpu-projects', '-home-dev-train');
  mkdirSync(project, { recursive: true });
  transcript = join(project, 's1.jsonl');
  writeFileSync(transcript, line(prompt('p1', null, 'train the model')));
  installHooks(claudeDir(), join(root, 'gpu-state'));
  remote = await startTestKernel(join(root, 'gpu-projects'), { hostName: 'gpubox', stateDir: join(root, 'gpu-state') });
  mkdirSync(join(root, 'hub-projects'));
  hub = await startTestKernel(join(root, 'hub-projects'), { hostName: 'laptop', federation: { home: sshd.home, ...FAST_LINKS } });
  configureRemote(hub, { name: 'gpu', target: `${sshd.user}@127.0.0.1:${sshd.port}`, stateDir: join(root, 'gpu-state') });
  expect((await hub.gql(LINK, { target: `${sshd.user}@127.0.0.1:${sshd.port}` })).data.linkHost.status?.state).toBe('UP');
}, 60_000);
afterAll(async () => {
  await hub?.close();
  await remote?.close();
  await sshd?.close();
  removeHookedDir(root);
});

describe("a linked host's permission request, answered from the hub", () => {
  it('is answered for a directed host, and both audit logs hold it', async () => {
    const { result } = askPermission(claudeDir(), transcript, { tool: 'Bash', input: { command: 'python train.py' } });
    const request = await until(async () => (await hub.gql(PENDING)).data.permissionRequests.find((r) => r.id.startsWith('gpu:')), 'the request on the hub');
    expect(request.toolName).toBe('Bash');
    const allowed = await hub.gql(ALLOW, { id: request.id, key: 'hub-1' });
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data.allowTool).toEqual({ id: request.id, state: 'ANSWERED', answeredBy: 'hub:laptop' });
    expect((await result).decision).toEqual({ behavior: 'allow' });

    const [onHost] = (await remote.gql(ACTIONS)).data.actions;
    expect(onHost).toMatchObject({ actor: 'hub:laptop', action: 'allowTool', host: 'gpubox', result: 'OK' });
    expect(onHost.requestId).toBe(request.id.replace(/^gpu:/, 'gpubox:'));
    const [onHub] = (await hub.gql(ACTIONS)).data.actions;
    expect(onHub).toMatchObject({ actor: 'local', action: 'allowTool', host: 'gpu', requestId: request.id, result: 'OK' });
  });

  it('is refused with FORBIDDEN for an isolated host, and the host never hears of it', async () => {
    await hub.gql(TRUST, { trust: 'ISOLATED' });
    const { result } = askPermission(claudeDir(), transcript, { tool: 'Bash', input: { command: 'rm -rf checkpoints' } });
    const request = await until(async () => (await hub.gql(PENDING)).data.permissionRequests.find((r) => r.id.startsWith('gpu:')), 'the request on the hub');
    const hostLogBefore = (await remote.gql(ACTIONS)).data.actions.length;
    const refused = await hub.gql(ALLOW, { id: request.id, key: 'hub-2' });
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect(refused.errors?.[0].message).toMatch(/gpu is isolated/);
    expect((await remote.gql(ACTIONS)).data.actions).toHaveLength(hostLogBefore);
    expect((await remote.gql(PENDING)).data.permissionRequests).toHaveLength(1);
    expect((await hub.gql(ACTIONS)).data.actions[0]).toMatchObject({ action: 'allowTool', host: 'gpu', result: 'FORBIDDEN' });
    // answered on the host itself, the stand-in goes on
    const [own] = (await remote.gql(PENDING)).data.permissionRequests;
    await remote.gql(ALLOW, { id: own.id, key: 'host-1' });
    expect((await result).by).toBe('hook');
    await hub.gql(TRUST, { trust: 'DIRECTED' });
  });

  it("turns a directed host's away switch from the hub, reads its audit log, and is refused for an isolated one", async () => {
    const SET_AWAY = graphql(`mutation ($on: Boolean!) { setAway(on: $on, host: "gpu") { on } }`);
    const turned = await hub.gql(SET_AWAY, { on: true });
    expect(turned.errors).toBeUndefined();
    expect(turned.data.setAway.on).toBe(true);
    expect((await remote.gql(graphql(`{ away { on } }`))).data.away.on).toBe(true);
    expect((await hub.gql(graphql(`{ away(host: "gpu") { on } here: away { on } }`))).data).toEqual({ away: { on: true }, here: { on: false } });
    const theirs = (await hub.gql(graphql(`{ actions(host: "gpu", first: 1) { actor action summary } }`))).data.actions;
    expect(theirs).toEqual([{ actor: 'hub:laptop', action: 'setAway', summary: 'away' }]);

    await hub.gql(TRUST, { trust: 'ISOLATED' });
    const refused = await hub.gql(SET_AWAY, { on: false });
    expect(refused.errors?.[0].extensions?.code).toBe('FORBIDDEN');
    expect((await remote.gql(graphql(`{ away { on } }`))).data.away.on).toBe(true);
    await hub.gql(TRUST, { trust: 'DIRECTED' });
    await hub.gql(SET_AWAY, { on: false });
  });
});
