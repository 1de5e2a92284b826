import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestKernel, type TestKernel } from '../helpers/kernel';
import { raw } from '../helpers/raw-http';
import { line, prompt } from '../helpers/records';

// Installing the dashboard as an app: the browser fetches the manifest without cookies, so it and
// the icons are public. Those five paths and nothing more.

const INSTALL_FILES = ['/manifest.webmanifest', '/icon-192.png', '/icon-512.png', '/icon-maskable-512.png', '/apple-touch-icon.png'];

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose: string }[];
}

let root: string;
let kernel: TestKernel;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'loom-install-'));
  mkdirSync(join(root, '-home-dev-secret'));
  writeFileSync(join(root, '-home-dev-secret', 's1.jsonl'), line(prompt('p1', null, 'the secret plan')));
  kernel = await startTestKernel(root);
});
afterAll(async () => {
  await kernel.close();
  rmSync(root, { recursive: true, force: true });
});

/** a GET with no token and no cookie, as the browser fetches a manifest */
const anonymous = (path: string) => fetch(new URL(path, kernel.url));

/** width and height from a PNG's IHDR chunk */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

describe('the install files', () => {
  it('load without a token: the manifest names Loom, opens at / standalone, and lists icons that load at their sizes', async () => {
    const res = await anonymous('/manifest.webmanifest');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/manifest+json');
    const manifest = (await res.json()) as Manifest;
    expect(manifest).toMatchObject({ name: 'Loom', short_name: 'Loom', start_url: '/', display: 'standalone' });
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/);
    expect(manifest.icons.map((i) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    for (const icon of manifest.icons) {
      const png = await anonymous(icon.src);
      expect(png.status, icon.src).toBe(200);
      expect(png.headers.get('content-type')).toBe('image/png');
      expect(pngSize(Buffer.from(await png.arrayBuffer())), icon.src).toBe(icon.sizes);
    }
    const apple = await anonymous('/apple-touch-icon.png');
    expect(pngSize(Buffer.from(await apple.arrayBuffer()))).toBe('180x180');
  });

  it('keeps every other path behind the token: the page, its scripts, near names and writes', async () => {
    const script = readdirSync(join(import.meta.dirname, '..', '..', 'web', 'dist', 'assets')).find((f) => f.endsWith('.js'));
    const near = ['/manifest.json', '/manifest.webmanifest/', '/icon-193.png', '/icons/icon-192.png', '/favicon.ico'];
    for (const path of ['/', '/index.html', '/settings', `/assets/${script}`, ...near]) {
      const res = await anonymous(path);
      expect(res.status, path).toBe(401);
      expect(await res.text(), path).not.toContain('secret');
    }
    for (const method of ['POST', 'PUT', 'DELETE']) {
      expect((await raw(kernel.port, { method, path: '/manifest.webmanifest' })).status, method).toBe(401);
    }
    // the Host check still comes first
    expect((await raw(kernel.port, { path: '/manifest.webmanifest', headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await raw(kernel.port, { path: INSTALL_FILES[0] })).status).toBe(200);
  });

  it('sends the security headers with them, and the page lets the browser read the manifest', async () => {
    for (const path of INSTALL_FILES) {
      const res = await anonymous(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
    const page = await kernel.fetch('/');
    expect(page.headers.get('content-security-policy')).toContain("manifest-src 'self'");
    const html = await page.text();
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    expect(html).toContain('<link rel="apple-touch-icon" href="/apple-touch-icon.png"');
  });
});
