import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { raw } from '../helpers/raw-http';

// A sign-in link redirects to the URL it came with, minus the token: always a path on this
// kernel, whatever the request path holds, never `//elsewhere` (which a browser takes as a host).

let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-redirect-'));
  mkdirSync(join(root, '-home-dev-app'));
  kernel = await startTestKernel(root);
});
afterAll(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the redirect after a sign-in link', () => {
  it('stays on the kernel’s own origin whatever the path', async () => {
    const token = encodeURIComponent(kernel.token);
    for (const path of ['/.//evil.example/', '//evil.example/', '/\\evil.example/', '/\\/evil.example/', '/%2F%2Fevil.example/', '/./\\evil.example/x']) {
      const res = await raw(kernel.port, { path: `${path}?token=${token}`, headers: { 'sec-fetch-site': 'none' } });
      expect(res.status, path).toBe(302);
      const location = String(res.headers.location);
      expect(location, path).toMatch(/^\/(?![/\\])/);
      expect(new URL(location, 'http://127.0.0.1:1/').origin, path).toBe('http://127.0.0.1:1');
      expect(location, path).not.toContain(kernel.token);
    }
  });
});
