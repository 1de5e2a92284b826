import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoredGoals } from '../../spoke/goals/stored-goals';
import type { Goal } from '../../spoke/model/goal';
import type { MessageUsage } from '../../spoke/model/usage';
import { BlobStore } from '../../spoke/store/blob-store';
import { MessageLedger, messageKey } from '../../spoke/usage/ledger';

// A ledger spilled to the store answers from disk, loads back when added to; a session's goals
// are read back as they were saved, or as unreadable when the blob is not goals; a compacted store
// keeps every blob still referred to.

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'loom-ledgers-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const message = (i: number, output = i): MessageUsage => ({
  key: messageKey(`msg_${i}`, `req_${i}`, ''),
  t: 1_700_000_000_000 + i,
  model: i % 2 ? 'claude-opus-4-6' : 'claude-sonnet-4-5',
  input: i,
  output,
  cacheWrite: 0,
  cacheWrite5m: 0,
  cacheWrite1h: 0,
  cacheRead: 2 * i,
});
const goal = (anchor: string): Goal => ({
  anchor,
  title: `ask ${anchor} — with “quotes” and a 🧵`,
  origin: 'human',
  status: 'COMPLETED',
  rolledUpStatus: 'COMPLETED',
  block: null,
  outcome: 'COMPLETED',
  openedAt: 1_700_000_000_000,
  updatedAt: 1_700_000_060_000,
  children: [{ key: 'todo-1', kind: 'TODO', title: 'write the test', status: 'COMPLETED' }],
});
const ledgerOf = (n: number) => {
  const ledger = new MessageLedger();
  for (let i = 1; i <= n; i++) ledger.add(message(i));
  return ledger;
};

describe('a ledger in the store', () => {
  it('answers from disk once spilled, and loads back when a message is added', () => {
    const store = BlobStore.create(join(dir, 'usage'));
    const ledger = ledgerOf(50);
    const before = [...ledger.entries()];
    ledger.spill(store);
    expect([...ledger.entries()]).toEqual(before);
    expect(statSync(join(dir, 'usage')).size).toBe(16 + 50 * 9 * 8);
    expect(ledger.size).toBe(50);
    ledger.add(message(7, 1000)); // a later copy of message 7 with more output counts instead
    ledger.add(message(51));
    expect(ledger.size).toBe(51);
    expect([...ledger.entries()].find((r) => r.input === 7)?.output).toBe(1000);
    store.close();
  });

  it('writes appends once enough wait, or when one is read, flushed or the store closed', () => {
    const file = join(dir, 'usage');
    const store = BlobStore.create(file);
    const small = store.append(Buffer.from('first'));
    store.append(Buffer.from('second'));
    expect(statSync(file).size).toBe(16);
    expect(store.read(small).toString()).toBe('first');
    expect(statSync(file).size).toBe(16 + 11);
    const large = store.append(Buffer.alloc(300 << 10, 7));
    expect(statSync(file).size).toBe(16 + 11 + (300 << 10));
    const last = store.append(Buffer.from('last'));
    store.flush();
    expect(statSync(file).size).toBe(large.at + large.bytes + 4);
    store.append(Buffer.from('unsaved until closed'));
    store.close();
    const again = BlobStore.reopen(file, store.id)!;
    expect(again.read(last).toString()).toBe('last');
    expect(again.read(large).every((b) => b === 7)).toBe(true);
    expect(statSync(file).size).toBe(last.at + 4 + 'unsaved until closed'.length);
    again.close();
  });

  it('leaves every reference where it was when a blob cannot be read while compacting', () => {
    const file = join(dir, 'usage');
    const store = BlobStore.create(file);
    store.append(Buffer.alloc(1000)); // no longer referred to: most of the file
    const first = store.append(Buffer.from('first'));
    const past = { at: 1 << 20, bytes: 10 }; // a damaged reference: past the file's end
    const third = store.append(Buffer.from('third'));
    expect(() => store.compact([first, past, third], 0)).toThrow(/ends before the blob/);
    expect(first).toEqual({ at: 16 + 1000, bytes: 5 });
    expect(store.read(first).toString()).toBe('first');
    expect(store.read(third).toString()).toBe('third');
    expect(existsSync(`${file}.new`)).toBe(false);
    store.close();
  });

  it('is found again by the id the cache keeps, and not under another id', () => {
    const store = BlobStore.create(join(dir, 'usage'));
    const rows = ledgerOf(3).save(store);
    store.close();
    expect(BlobStore.reopen(join(dir, 'usage'), 'f'.repeat(32))).toBeNull();
    const again = BlobStore.reopen(join(dir, 'usage'), store.id)!;
    expect([...MessageLedger.stored(again, rows).entries()].map((r) => r.input)).toEqual([1, 2, 3]);
    again.close();
  });

  it('keeps every blob still referred to when most of the file is not', () => {
    const store = BlobStore.create(join(dir, 'usage'));
    const kept = ledgerOf(10);
    kept.spill(store);
    const goals = StoredGoals.of([goal('a'), goal('b')]);
    const goalBytes = goals.save(store).bytes;
    const churned = ledgerOf(40);
    for (let round = 0; round < 5; round++) {
      churned.spill(store);
      churned.add(message(100 + round)); // woke, changed, will sleep again: its old rows are garbage
    }
    churned.spill(store);
    const id = store.id;
    const before = statSync(join(dir, 'usage')).size;
    store.compact([kept.storedRows()!, churned.storedRows()!, goals.storedBlob()!], 0);
    expect(store.id).not.toBe(id);
    expect(statSync(join(dir, 'usage')).size).toBe(16 + (10 + 45) * 9 * 8 + goalBytes);
    expect(statSync(join(dir, 'usage')).size).toBeLessThan(before / 2);
    expect([...kept.entries()].map((r) => r.input)).toEqual([...ledgerOf(10).entries()].map((r) => r.input));
    expect(churned.size).toBe(45);
    expect(StoredGoals.stored(store, goals.storedBlob()!).get()).toEqual([goal('a'), goal('b')]);
    store.close();
  });
});

describe("an API message's key", () => {
  it('is the hash index caches before it kept for the same message: of `message.id:requestId`, else of the uuid', () => {
    // the values the joined strings hashed to (FNV-1a twice, folded into 53 bits) when caches kept them
    expect(messageKey('msg_01ABC', 'req_01XYZ', 'u1')).toBe(695882075264013);
    expect(messageKey(null, 'req_01XYZ', '3bfb56f0-357c-4ce2-af44-000000000005')).toBe(3223351396228578);
    expect(messageKey('msg_01ABC', null, '3bfb56f0-357c-4ce2-af44-000000000005')).toBe(3223351396228578);
  });
});

describe("a session's goals in the store", () => {
  it('reads back the goals saved, once saved per store', () => {
    const store = BlobStore.create(join(dir, 'blobs'));
    const goals = StoredGoals.of([goal('a'), goal('b')]);
    const blob = goals.save(store);
    const size = statSync(join(dir, 'blobs')).size;
    expect(goals.save(store)).toBe(blob);
    expect(statSync(join(dir, 'blobs')).size).toBe(size);
    store.close();
    const again = BlobStore.reopen(join(dir, 'blobs'), store.id)!;
    const restored = StoredGoals.stored(again, blob);
    expect(restored.get()).toEqual([goal('a'), goal('b')]);
    expect(restored.save(again)).toBe(blob);
    again.close();
  });

  it('reads a blob that is not goals as unreadable, and keeps referring to it', () => {
    const store = BlobStore.create(join(dir, 'blobs'));
    const notJson = store.append(Buffer.from('[{"anchor": "a", "tit'));
    const notGoals = store.append(Buffer.from(JSON.stringify([{ ...goal('a'), status: 'DONE' }])));
    const pastTheEnd = { at: 1_000_000, bytes: 10 };
    for (const blob of [notJson, notGoals, pastTheEnd]) {
      const stored = StoredGoals.stored(store, blob);
      expect(stored.get()).toBeNull();
      expect(stored.get()).toBeNull();
      expect(stored.save(store)).toBe(blob);
    }
    store.close();
  });
});
