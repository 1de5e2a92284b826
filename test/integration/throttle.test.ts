import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { raw } from '../helpers/raw-http';

// Once an address has used up its wrong guesses, whatever token it sends gets the same 429:
// the kernel does not compare it, so the answer says nothing about it.

let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-throttle-'));
  mkdirSync(join(root, '-home-dev-app'));
  // a slow refill, so the ration cannot come back in the middle of the test
  kernel = await startTestKernel(root, { throttle: { burst: 3, perSecond: 0.05 } });
});
afterAll(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

const QUERY = JSON.stringify({ query: '{ kernel { version } }' });
const withHeader = (token: string) =>
  raw(kernel.port, { method: 'POST', path: '/graphql', headers: { 'x-loom-token': token, 'content-type': 'application/json' }, body: QUERY });
const withLink = (token: string) => raw(kernel.port, { path: `/?token=${encodeURIComponent(token)}`, headers: { 'sec-fetch-site': 'none' } });

function wsClose(token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${kernel.port}/graphql`, 'graphql-transport-ws');
    ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: { token } })));
    ws.on('message', () => ws.close(1000));
    ws.on('close', (code) => resolve(code));
    ws.on('error', reject);
  });
}

describe('an address out of guesses', () => {
  it('gets the same answer for the right token and a wrong one, over the header, the link and the WebSocket', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 3; i++) answers.push((await withHeader(`guess-${i}`)).status);
    expect(answers).toEqual([401, 401, 401]);

    const [right, wrong] = await Promise.all([withHeader(kernel.token), withHeader('guess-again')]);
    expect(right.status).toBe(429);
    expect({ ...right.headers, date: null }).toEqual({ ...wrong.headers, date: null });
    expect(right.body).toBe(wrong.body);

    const [rightLink, wrongLink] = await Promise.all([withLink(kernel.token), withLink('guess-again')]);
    expect(rightLink.status).toBe(429);
    expect(rightLink.headers['set-cookie']).toBeUndefined();
    expect(rightLink.body).toBe(wrongLink.body);

    expect(await wsClose(kernel.token)).toBe(4403);
    expect(await wsClose('guess-again')).toBe(4403);
    expect(kernel.logs.filter((l) => /answering 429/.test(l))).toHaveLength(1);
  });
});
