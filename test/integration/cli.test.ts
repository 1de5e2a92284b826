import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** Starts `loom up` and resolves with its URL once it printed one and the sessions its first index found. */
async function up(args: string[]): Promise<{ child: ChildProcess; url: string; out: () => string; err: () => string }> {
  const child = spawn(process.execPath, [LOOM, 'up', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  const url = await until(() => /http:\/\/127\.0\.0\.1:\d+\//.exec(out)?.[0], `a URL from loom up (stderr: ${err})`, 20_000);
  await until(() => /\n\d+ sessions from /.test(out), `the first index, done (stdout: ${out})`, 20_000);
  return { child, url, out: () => out, err: () => err };
}

afterEach(async () => {
  // Wait for each kernel to exit: it writes its index cache into the state dir on the way out.
  await Promise.all(
    children.splice(0).map((child) => {
      if (child.exitCode !== null) return Promise.resolve();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      return exited;
    }),
  );
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('loom up and loom status', () => {
  it('starts on loopback, prints the URL at once and the sessions once indexed, and answers loom status', async () => {
    const state = tempDir();
    const { url, out, err } = await up(['--projects', FIXTURES, '--state', state]);
    expect(out()).toMatch(/^Loom [\d.]+ on [^,]+, reading .*claude-projects\n/);
    expect(out()).toMatch(/\n23 sessions from .*claude-projects\n$/);
    // stderr and stdout are separate pipes: the progress summary may arrive after the URL.
    await until(() => /indexed 36 files, [\d.]+ MB in [\d.]+ s/.test(err()), `the indexing summary on stderr (got: ${err()})`);
    const token = readFileSync(join(state, 'token'), 'utf8').trim();
    expect(out()).toContain(`open ${url}?token=${token}`);
    const res = await fetch(`${url}graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-loom-token': token },
      body: JSON.stringify({ query: '{ kernel { sessionCount } }' }),
    });
    expect((await res.json()).data.kernel.sessionCount).toBe(23);
    const status = JSON.parse((await run(process.execPath, [LOOM, 'status', '--json', '--state', state])).stdout);
    expect(status).toMatchObject({ running: true, url, sessionCount: 23, indexing: { done: true } });
    // what the archive holds, and that its cap may drop the copies of deleted transcripts, in words
    await until(
      async () => JSON.parse((await run(process.execPath, [LOOM, 'status', '--json', '--state', state])).stdout).archive.files === 35,
      'the archive pass',
    );
    const text = (await run(process.execPath, [LOOM, 'status', '--state', state])).stdout;
    expect(text).toMatch(
      /archive: {3}35 transcripts, 17\.2 MB kept in [\d.]+ [KM]B \(cap 4\.0 GB, oldest dropped first, even when its transcript is deleted\); 0 deleted by Claude Code and kept only here; nothing dropped/,
    );
    expect(text).toMatch(/search: {4}(done|\d+\/36 files)/);
  }, 60_000);

  it('keeps no copy with --no-archive, and says so in loom status', async () => {
    const state = tempDir();
    await up(['--projects', FIXTURES, '--state', state, '--no-archive']);
    expect((await run(process.execPath, [LOOM, 'status', '--state', state])).stdout).toContain('archive:   off (deleted transcripts are not kept)');
    const bad = await run(process.execPath, [LOOM, 'up', '--port', '0', '--projects', FIXTURES, '--state', tempDir(), '--archive-cap', 'lots']).catch((e) => e);
    expect(bad.stderr).toContain('--archive-cap is a size such as 4G, 500M or none, got "lots"');
  });

  it('starts with the index workers --index-workers asks for, and refuses a count that is not one', async () => {
    const started = await up(['--projects', FIXTURES, '--state', tempDir(), '--index-workers', '2']);
    expect(started.out()).toMatch(/\n23 sessions from /);
    expect(started.err()).not.toContain('index worker stopped');
    const bad = await run(process.execPath, [LOOM, 'up', '--port', '0', '--projects', FIXTURES, '--state', tempDir(), '--index-workers', 'many']).catch(
      (e) => e,
    );
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(`--index-workers is how many threads index the first read besides the kernel's own (0 to 16), got "many"`);
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
    const ask = (token: string) =>
      fetch(`${url}graphql`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-loom-token': token }, body: '{"query":"{ hosts { id } }"}' });
    expect((await ask(old)).status).toBe(401);
    expect((await ask(fresh)).status).toBe(200);
  });

  it('says plainly when no kernel is running', async () => {
    const result = await run(process.execPath, [LOOM, 'status', '--state', tempDir()]).catch((e) => e);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no kernel is running on .*; start one with: loom up/);
  });

  it('serves live demo sessions with their hook states when asked for the demo, with no transcripts at all', async () => {
    const state = tempDir();
    const { url } = await up(['--demo', '--state', state, '--projects', join(tempDir(), 'nothing-here')]);
    const token = readFileSync(join(state, 'token'), 'utf8').trim();
    /** what the query below answers */
    interface Sessions {
      totalCount: number;
      nodes: { atomCount: number; live: { state: string } }[];
    }
    const query = async () => {
      const res = await fetch(`${url}graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-loom-token': token },
        body: JSON.stringify({ query: '{ sessions { totalCount nodes { atomCount live { state } } } }' }),
      });
      return ((await res.json()) as { data: { sessions: Sessions } }).data.sessions;
    };
    const first = await query();
    expect(first.totalCount).toBeGreaterThanOrEqual(5);
    expect(first.nodes.filter((s) => s.live.state === 'UNKNOWN')).toEqual([]);
    const total = (s: Sessions) => s.nodes.reduce((n, x) => n + x.atomCount, 0);
    await until(async () => total(await query()) > total(first), 'the demo sessions to grow', 15_000);
  });
});

/** Runs `loom` to its end and expects a refusal: exit 1, one line on stderr, no stack. */
async function refusal(args: string[]): Promise<string> {
  const result = await run(process.execPath, [LOOM, ...args]).then(
    () => expect.fail(`loom ${args.join(' ')} was not refused`),
    (err) => err,
  );
  expect(result.code).toBe(1);
  expect(result.stderr).not.toMatch(/^\s+at /m);
  expect(result.stderr).toMatch(/^loom: [^\n]+\n$/);
  return result.stderr;
}

describe('refusals', () => {
  it('refuses a hosts.json that is not JSON, not a hosts file, or a directory, each in one line that says how to fix it', async () => {
    const state = tempDir();
    const hosts = join(state, 'hosts.json');
    const up = () => refusal(['up', '--port', '0', '--projects', FIXTURES, '--state', state]);
    writeFileSync(hosts, '{\n  "hosts": [\n    { "name": "gpu", }\n  ]\n}\n');
    expect(await up()).toBe(`loom: ${hosts} is not valid JSON at line 3; fix it or move it aside\n`);
    writeFileSync(hosts, JSON.stringify({ hosts: [{ name: 'gpu' }] }));
    expect(await up()).toMatch(/hosts\.json is not a valid hosts file: hosts\.0\.target \(host "gpu"\): .*; fix it or move it aside\n$/);
    writeFileSync(hosts, JSON.stringify({ hosts: [{ name: 'gpu', target: 'gpu-box', command: 'touch /tmp/x; loom' }] }));
    expect(await up()).toMatch(
      /hosts\.0\.command \(host "gpu"\): a command is "loom" or an absolute path, then arguments of letters, digits and \._\/=:@- only; fix it/,
    );
    rmSync(hosts);
    mkdirSync(hosts);
    expect(await up()).toBe(`loom: ${hosts} is a directory, not a hosts file; move it aside\n`);
  });

  it('refuses an unknown option, a target that starts with "-", and a --command a shell would read, before anything runs', async () => {
    const state = tempDir();
    const touched = join(tempDir(), 'x');
    const hosts = JSON.stringify({ hosts: [{ name: 'gpu', target: 'gpu-box', trust: 'directed', command: 'loom' }] });
    writeFileSync(join(state, 'hosts.json'), hosts);
    expect(await refusal(['link', `-oProxyCommand=touch ${touched}`, '--state', state])).toMatch(
      new RegExp(`^loom: unknown option "-oProxyCommand=touch ${touched}"; usage: loom link <ssh-target> \\[--name ALIAS\\]`),
    );
    expect(await refusal(['link', '--state', state, '--', `-oProxyCommand=touch ${touched}`])).toMatch(
      /^loom: the target "-oProxyCommand=touch .*" is refused: it starts with "-", which ssh would read as an option/,
    );
    expect(await refusal(['link', 'gpu-box', '--command', `touch ${touched}; loom`, '--state', state])).toBe(
      `loom: --command "touch ${touched}; loom" is refused: a command is "loom" or an absolute path, then arguments of letters, digits and ._/=:@- only\n`,
    );
    expect(await refusal(['link', 'gpu-box', '--remote-state', '~/loom', '--state', state])).toMatch(
      /--remote-state "~\/loom" is refused: a state dir is an absolute path/,
    );
    expect(existsSync(touched)).toBe(false);
    expect(readFileSync(join(state, 'hosts.json'), 'utf8')).toBe(hosts);
  });

  it('answers an unknown option or a missing value of every subcommand with its usage, in one line', async () => {
    for (const command of ['up', 'status', 'url', 'token', 'hooks', 'hook', 'link', 'unlink', 'hosts', 'run']) {
      expect(await refusal([command, '--no-such-option'])).toMatch(new RegExp(`^loom: unknown option "--no-such-option"; usage: loom ${command} `));
    }
    expect(await refusal(['link', 'gpu-box', '--name'])).toMatch(/^loom: option '--name <value>' argument missing; usage: loom link /);
  });

  it("says why the running kernel refuses a link: a bad name, or this machine's own name (and keeps no entry for it)", async () => {
    const state = tempDir();
    await up(['--projects', FIXTURES, '--state', state, '--name', 'box']);
    expect(await refusal(['link', 'gpu-box', '--name', 'a:b', '--state', state])).toBe(
      'loom: the name "a:b" is refused: letters, digits, ".", "_" and "-", at most 63, starting with a letter or digit\n',
    );
    expect(await refusal(['link', 'box.example', '--command', '/opt/loom/bin/loom', '--remote-state', '/var/lib/loom', '--state', state])).toMatch(
      /"box" is this machine's own name; give the host another with --name/,
    );
    expect(JSON.parse(readFileSync(join(state, 'hosts.json'), 'utf8')).hosts).toEqual([]);
  });
});
