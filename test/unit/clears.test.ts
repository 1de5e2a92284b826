import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GoalClears } from '../../spoke/goals/clears';

// The cleared goals' log in a real state dir: one line a clear, read back after a restart.

let dir: string;
let file: string;
let logs: string[];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-clears-'));
  file = join(dir, 'cleared-goals.jsonl');
  logs = [];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const open = () => GoalClears.open(file, (m) => logs.push(m));

describe('the cleared goals', () => {
  it('appends one line a clear to the same file, instead of writing every batch again', async () => {
    const clears = await open();
    await clears.clear(['s/a'], 'first');
    const inode = statSync(file).ino;
    const sizes: number[] = [];
    for (let i = 0; i < 300; i++) {
      await clears.clear([`s${i}/a`, `s${i}/b`], `key-${i}`);
      sizes.push(statSync(file).size);
    }
    // a rewrite goes through a temp file and a rename: a new inode every time
    expect(statSync(file).ino).toBe(inode);
    const growth = sizes.slice(1).map((size, i) => size - sizes[i]);
    expect(Math.max(...growth)).toBeLessThan(250);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(301);
  });

  it('reads back the same clears, undos and idempotency keys after a restart, the undos folded in', async () => {
    const first = await open();
    const { batchId } = await first.clear(['s1/a', 's1/b'], 'k1');
    await first.clear(['s2/a'], 'k2');
    await first.undo(batchId);
    const again = await open();
    expect([again.has('s1/a'), again.has('s2/a')]).toEqual([false, true]);
    expect((await again.clear(['other'], 'k1')).batchId).toBe(batchId);
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean)).toHaveLength(2);
  });

  it('loses only the batch whose line a crash cut short, says so once, and appends cleanly after', async () => {
    const clears = await open();
    await clears.clear(['s1/a'], 'k1');
    appendFileSync(file, '{"kind":"clear","batchId":"x","goals":["s2/a"],"idempo');
    const after = await open();
    expect([after.has('s1/a'), after.has('s2/a')]).toEqual([true, false]);
    expect(logs).toEqual([expect.stringMatching(/line 2 is not a record Loom wrote; it is left out/)]);
    await after.clear(['s3/a'], 'k3');
    expect((await open()).has('s3/a')).toBe(true);
  });

  it('carries over the batches of a 0.2 state dir once', async () => {
    const legacy = join(dir, 'cleared-goals.json');
    writeFileSync(legacy, JSON.stringify({ batches: { b1: { goals: ['s1/a'], idempotencyKey: 'k1', at: 1, undone: false } } }));
    const clears = await open();
    expect(clears.has('s1/a')).toBe(true);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(`${legacy}.imported`)).toBe(true);
    expect((await open()).has('s1/a')).toBe(true);
  });
});
