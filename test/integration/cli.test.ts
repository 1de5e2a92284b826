import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/kernel';
import { until } from '../helpers/wait';

// The `loom` command as a person runs it: a real process, real ports, real output.

const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');
const run = promisify(execFile);
const children: ChildProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loom-cli-'));
  dirs.push(dir);
  return dir;
}

/** Starts `loom up` and resolves with its URL once it printed one. */
async function up(args: string[]): Promise<{ child: ChildProcess; url: string; out: () => string; err: () => string }> {
  const child = spawn(process.execPath, [LOOM, 'up', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0], `a URL from loom up (stderr: ${err})`, 20_000);
  return { child, url, out: () => out, err: () => err };
}

afterEach(async () => {
  // Wait for each kernel to exit: it writes its index cache into the state dir on the way out.
  await Promise.all(
    children.splice(0).map((child) => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    }),
  );
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loom up and loom status', () => {
  it('starts on loopback, prints the URL after indexing, and answers loom status', async () => {
    const state = tempDir();
    const { url, out, err } = await up(['--projects', FIXTURES, '--state', state]);
    expect(out()).toMatch(/23 sessions from .*claude-projects/);
    // stderr and stdout are separate pipes: the progress summary may arrive after the URL.
    await until(() => /indexed 36 files, [\d.]+ MB in [\d.]+ s/.test(err()), `the indexing summary on stderr (got: ${err()})`);
    const token = readFileSync(join(state, 'token'), 'utf8').trim();
    expect(out()).toContain(`open ${url}?token=${token}`);
    const res = await fetch(`${url}graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loom-token': token }, body: JSON.stringify({ query: '{ kernel { sessionCount } }' }) });
    expect((await res.json()).data.kernel.sessionCount).toBe(23);
    const status = JSON.parse((await run(process.execPath, [LOOM, 'status', '--json', '--state', state])).stdout);
    expect(status).toMatchObject({ running: true, url, sessionCount: 23, indexing: { done: true } });
  });

  it('refuses a second kernel on the same state dir and names the one holding it', async () => {
    const state = tempDir();
    await up(['--projects', FIXTURES, '--state', state]);
    const second = await run(process.execPath, [LOOM, 'up', '--port', '0', '--projects', FIXTURES, '--state', state]).catch((e) => e);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/another Loom kernel \(pid \d+, http:\/\/127\.0\.0\.1:\d+\/\) is using the state dir/);
  });

  it('prints the sign-in link with loom url, and loom token --rotate makes the old token useless', async () => {
    const state = tempDir();
    const { url } = await up(['--projects', FIXTURES, '--state', state]);
    const old = readFileSync(join(state, 'token'), 'utf8').trim();
    expect((await run(process.execPath, [LOOM, 'url', '--state', state])).stdout.trim()).toBe(`${url}?token=${old}`);
    const rotated = await run(process.execPath, [LOOM, 'token', '--rotate', '--state', state]);
    expect(rotated.stdout).toMatch(/rotated the token/);
    const fresh = readFileSync(join(state, 'token'), 'utf8').trim();
    expect(fresh).not.toBe(old);
    const ask = (token: string) => fetch(`${url}graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loom-token': token }, body: '{"query":"{ hosts { id } }"}' });
    expect((await ask(old)).status).toBe(401);
    expect((await ask(fresh)).status).toBe(200);
  });

  it('says plainly when no kernel is running', async () => {
    const result = await run(process.execPath, [LOOM, 'status', '--state', tempDir()]).catch((e) => e);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no kernel is running on .*; start one with: loom up/);
  });

  it('serves live demo sessions when asked for the demo, with no transcripts at all', async () => {
    const state = tempDir();
    const { url } = await up(['--demo', '--state', state, '--projects', join(tempDir(), 'nothing-here')]);
    const token = readFileSync(join(state, 'token'), 'utf8').trim();
    const query = async () => {
      const res = await fetch(`${url}graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loom-token': token }, body: JSON.stringify({ query: '{ sessions { totalCount nodes { atomCount } } }' }) });
      return (await res.json()).data.sessions;
    };
    const first = await query();
    expect(first.totalCount).toBeGreaterThanOrEqual(5);
    const total = (s: any) => s.nodes.reduce((n: number, x: any) => n + x.atomCount, 0);
    await until(async () => total(await query()) > total(first), 'the demo sessions to grow', 15_000);
  });
});
