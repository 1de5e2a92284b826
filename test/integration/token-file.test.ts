import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The token is one Loom generated (256 random bits, base64url); a hand-written one, however
// long, is refused at start with the fix, and `loom token --rotate` is that fix.

const LOOM = join(import.meta.dirname, '..', '..', 'server', 'bin', 'loom.js');
let state: string;
let projects: string;

beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'loom-token-state-'));
  projects = mkdtempSync(join(tmpdir(), 'loom-token-projects-'));
  mkdirSync(join(projects, '-home-dev-app'));
});
afterEach(() => {
  rmSync(state, { recursive: true, force: true });
  rmSync(projects, { recursive: true, force: true });
});

const loom = (...args: string[]) => spawnSync(process.execPath, [LOOM, ...args, '--state', state], { encoding: 'utf8', timeout: 20_000 });
const up = () => loom('up', '--port', '0', '--no-demo', '--projects', projects);

describe('a token file Loom did not write', () => {
  it('is refused at start with one line that says to rotate it, and `loom token --rotate` makes a good one', { timeout: 60_000 }, () => {
    for (const written of ['a'.repeat(22), 'a'.repeat(43), `${'abcdefghij'.repeat(4)}abc`, 'has spaces in it and is long enough for a length check']) {
      writeFileSync(join(state, 'token'), `${written}\n`, { mode: 0o600 });
      const refused = up();
      expect(refused.status, written).toBe(1);
      expect(refused.stderr.trim().split('\n'), written).toHaveLength(1);
      expect(refused.stderr, written).toMatch(/^loom: .*token.*run `loom token --rotate`/);
    }
    expect(loom('token', '--rotate').status).toBe(0);
    const made = readFileSync(join(state, 'token'), 'utf8').trim();
    expect(made).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(made, 'base64url')).toHaveLength(32);
  });
});
