import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript, run before anything is compiled
import { bundleOptions } from '../../server/bin/compiled.js';
import { VERSION } from '../../spoke/version';
import { until } from '../helpers/wait';

// `loom` runs a bundle compiled from its sources (server/bin/compiled.js): these run the real
// command against this checkout's own build folder.

const ROOT = join(import.meta.dirname, '..', '..');
const LOOM = join(ROOT, 'server', 'bin', 'loom.js');
const BUILDS = join(ROOT, 'dist', 'loom');
const CURRENT = join(BUILDS, 'current.json');
const run = promisify(execFile);

interface Current {
  build: string;
  inputs: [string, number, number][];
}
const current = (): Current => JSON.parse(readFileSync(CURRENT, 'utf8')) as Current;

/** A source of the build made newer, so that the next command rebuilds (and removes builds it may). */
function touchSource(): void {
  const source = join(ROOT, 'spoke', 'version.ts');
  const later = new Date(statSync(source).mtime.getTime() + 1000);
  utimesSync(source, later, later);
}

/** A build folder two hours old, run by the process `pid` (as compiled.js marks one). */
function oldBuildRunBy(pid: number): string {
  const build = join(BUILDS, `test-${pid}-${Math.random().toString(36).slice(2)}`);
  mkdirSync(join(build, 'running'), { recursive: true });
  writeFileSync(join(build, 'running', String(pid)), '');
  const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  utimesSync(build, twoHoursAgo, twoHoursAgo);
  return build;
}

describe('the compiled CLI', () => {
  it('is built from every source the CLI loads, and runs from that build', async () => {
    const { stdout } = await run(process.execPath, [LOOM, '--version']);
    expect(stdout.trim()).toBe(VERSION);
    const { build, inputs } = current();
    expect(existsSync(join(ROOT, 'dist', 'loom', build, 'cli.js'))).toBe(true);
    const sources = inputs.map(([path]) => path);
    for (const source of ['server/cli.ts', 'server/commands/up.ts', 'spoke/source.ts', 'schema/builder.ts', 'federation/linked-hosts.ts']) {
      expect(sources).toContain(join(ROOT, source));
    }
  });

  it('holds graphql once, as its ES modules', async () => {
    // the bundle's own text names no module (it is written without white space or comments): esbuild's account of it does
    const out = mkdtempSync(join(tmpdir(), 'loom-bundle-'));
    try {
      const { metafile } = await build({ ...bundleOptions({ cli: join(ROOT, 'server', 'cli.ts') }, out), write: false });
      const bundled = Object.keys(metafile!.inputs).filter((input) => input.includes('node_modules/graphql/'));
      // (a checkout whose node_modules is a link names the packages where the link leads)
      expect(bundled.some((module) => module.endsWith('node_modules/graphql/execution/execute.mjs'))).toBe(true);
      expect(bundled.filter((module) => !module.endsWith('.mjs'))).toEqual([]);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('is rebuilt when a source it was made from changes', async () => {
    const source = join(ROOT, 'spoke', 'version.ts');
    touchSource();
    const { stdout } = await run(process.execPath, [LOOM, '--version']);
    expect(stdout.trim()).toBe(VERSION);
    expect(current().inputs.find(([path]) => path === source)?.[2]).toBe(statSync(source).mtimeMs);
  });

  it('keeps an old build while a process runs from it, and removes it once none does', async () => {
    const gone = await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, ['-e', '0']);
      child.once('exit', () => resolve(child.pid!));
    });
    const inUse = oldBuildRunBy(process.pid);
    const unused = oldBuildRunBy(gone);
    try {
      touchSource();
      await run(process.execPath, [LOOM, '--version']);
      expect(existsSync(inUse)).toBe(true);
      expect(existsSync(unused)).toBe(false);
    } finally {
      rmSync(inUse, { recursive: true, force: true });
      rmSync(unused, { recursive: true, force: true });
    }
  });

  it('names each running kernel in its build until the kernel exits', async () => {
    const state = mkdtempSync(join(tmpdir(), 'loom-compiled-'));
    const kernel = spawn(process.execPath, [LOOM, 'up', '--port', '0', '--no-demo', '--projects', state, '--state', state], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      let out = '';
      kernel.stdout!.on('data', (d) => (out += d));
      await until(() => /http:\/\/127\.0\.0\.1:\d+\//.test(out), 'the link from loom up', 20_000);
      // the build it runs from: another test's command may have made a newer one current since
      const markers = () => readdirSync(BUILDS).filter((build) => existsSync(join(BUILDS, build, 'running', String(kernel.pid))));
      expect(markers()).toHaveLength(1);
      const exited = new Promise((resolve) => kernel.once('exit', resolve));
      kernel.kill('SIGTERM');
      await exited;
      expect(markers()).toEqual([]);
    } finally {
      kernel.kill('SIGKILL');
      rmSync(state, { recursive: true, force: true });
    }
  });

  it('rebuilds over a damaged record of the current build', async () => {
    writeFileSync(CURRENT, '{"build": 7, "inputs": "not a list"');
    const { stdout, stderr } = await run(process.execPath, [LOOM, '--version']);
    expect(stdout.trim()).toBe(VERSION);
    expect(stderr).toBe('');
    expect(typeof current().build).toBe('string');
  });

  it('keeps each module where its source is: the hooks it installs name the scripts beside the CLI', async () => {
    const config = mkdtempSync(join(tmpdir(), 'loom-compiled-'));
    try {
      await run(process.execPath, [LOOM, 'hooks', 'install', '--state', config], { env: { ...process.env, CLAUDE_CONFIG_DIR: config } });
      const settings = JSON.parse(readFileSync(join(config, 'settings.json'), 'utf8'));
      const script = /'([^']*loom-hook\.sh)'/.exec(settings.hooks.Stop[0].hooks[0].command as string)?.[1];
      expect(script).toBe(join(ROOT, 'server', 'bin', 'loom-hook.sh'));
      expect(existsSync(script!)).toBe(true);
    } finally {
      rmSync(config, { recursive: true, force: true });
    }
  });
});
