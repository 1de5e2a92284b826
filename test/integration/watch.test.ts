import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../web/src/lib/graphql';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { line, prompt } from '../helpers/records';
import { askPermission, installHooks, removeHookedDir } from '../helpers/stand-in-claude';
import { until } from '../helpers/wait';

// `loom watch --blocked`, the subscription-driven integration: a goal that starts needing its
// person reaches a webhook through docs/examples/blocked-webhook.mjs, and an --exec command.

const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');
const WEBHOOK = join(import.meta.dirname, '..', '..', 'docs', 'examples', 'blocked-webhook.mjs');

let root: string;
let kernel: TestKernel;
let server: Server;
const posted: { text: string; goal: { goalId: string; host: string; block: { kind: string; request: { toolName: string } } } }[] = [];
const children: ChildProcess[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-watch-'));
  mkdirSync(join(root, 'projects', '-home-dev-demo'), { recursive: true });
  writeFileSync(join(root, 'projects', '-home-dev-demo', 's1.jsonl'), line(prompt('p1', null, 'ship the release')));
  installHooks(join(root, 'claude'), join(root, 'state'));
  kernel = await startTestKernel(join(root, 'projects'), { stateDir: join(root, 'state') });
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      posted.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const child of children) child.kill();
  server?.close();
  await kernel?.close();
  removeHookedDir(root);
});

/** `loom watch --blocked` with these arguments, once it follows the kernel. */
async function watching(...args: string[]): Promise<ChildProcess> {
  const child = spawn(process.execPath, [LOOM, 'watch', '--blocked', '--state', kernel.stateDir, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let err = '';
  child.stderr!.on('data', (c) => {
    err += c;
  });
  await until(() => err.includes('following'), 'loom watch following the kernel', 20_000);
  return child;
}

describe('loom watch --blocked', () => {
  it('posts a newly blocked goal to a webhook through the example script, and hands it to --exec on stdin', async () => {
    const watch = await watching();
    const webhook = spawn(process.execPath, [WEBHOOK, `http://127.0.0.1:${(server.address() as AddressInfo).port}/`], {
      stdio: ['pipe', 'inherit', 'inherit'],
    });
    children.push(webhook);
    watch.stdout!.pipe(webhook.stdin!);
    const execOut = join(root, 'exec.jsonl');
    await watching('--exec', `cat >> '${execOut}'`);

    const { result } = askPermission(join(root, 'claude'), join(root, 'projects', '-home-dev-demo', 's1.jsonl'), {
      tool: 'Bash',
      input: { command: 'npm publish' },
    });
    const [hook] = await until(() => posted.length > 0 && posted, 'the webhook called');
    expect(hook.text).toBe('test:ship the release needs you: Bash needs permission');
    expect(hook.goal).toMatchObject({ host: 'test', block: { kind: 'PERMISSION', request: { toolName: 'Bash' } } });
    const execLine = await until(() => {
      try {
        return readFileSync(execOut, 'utf8').trim();
      } catch {
        return '';
      }
    }, 'the --exec command run');
    expect(JSON.parse(execLine)).toMatchObject({ goalId: hook.goal.goalId, session: 'ship the release', title: 'ship the release' });

    const [request] = (await kernel.gql(graphql(`{ permissionRequests { id } }`))).data.permissionRequests;
    await kernel.gql(graphql(`mutation ($id: ID!) { allowTool(requestId: $id, idempotencyKey: "w1") { state } }`), { id: request.id });
    await result;
    expect(posted).toHaveLength(1); // announced once, however many changes followed
  });
});
