import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel } from '../helpers/kernel';

// A client that opens a socket and sends its headers slowly, or never finishes them, holds a
// socket; the kernel closes it after the header timeout (shortened here; see kernel-defaults.ts).

let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-idle-'));
  mkdirSync(join(root, '-home-dev-app'));
  kernel = await startTestKernel(root, { httpTimeouts: { headersMs: 500, requestMs: 1000 } });
});
afterAll(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

describe('a socket that sends half a request line and then nothing', () => {
  it('is closed by the kernel after the header timeout', async () => {
    const socket = connect(kernel.port, '127.0.0.1');
    socket.on('error', () => {});
    socket.resume();
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /graphql HT');
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000); // a generous bound: CI never times
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    expect(closed).toBe(true);
  });
});
