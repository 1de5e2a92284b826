import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VERSION } from '../../spoke/version';

// `loom` runs a bundle compiled from its sources (server/bin/compiled.js): these run the real
// command against this checkout's own build folder.

const ROOT = join(import.meta.dirname, '..', '..');
const LOOM = join(ROOT, 'server', 'bin', 'loom.js');
const CURRENT = join(ROOT, 'dist', 'loom', 'current.json');
const run = promisify(execFile);

interface Current {
  build: string;
  inputs: [string, number, number][];
}
const current = (): Current => JSON.parse(readFileSync(CURRENT, 'utf8')) as Current;

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

  it('is rebuilt when a source it was made from changes', async () => {
    const source = join(ROOT, 'spoke', 'version.ts');
    const { mtime } = statSync(source);
    const later = new Date(mtime.getTime() + 1000);
    utimesSync(source, later, later);
    const { stdout } = await run(process.execPath, [LOOM, '--version']);
    expect(stdout.trim()).toBe(VERSION);
    expect(current().inputs.find(([path]) => path === source)?.[2]).toBe(statSync(source).mtimeMs);
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
