import { describe, expect, it } from 'vitest';
import { namedAcrossPortions, type PortionReach, pathHashes, uuidHash } from '../../spoke/transcripts/summary-reach';

// Which sessions asleep in a cut project's portions the first index wakes, so that a summary read
// in another portion names them as one catalog would.

const portion = (asleep: Record<string, string[]>, leaves: string[] = []): PortionReach => ({
  asleep: new Map(Object.entries(asleep).map(([key, uuids]) => [key, pathHashes(uuids.map((uuid) => ({ uuid })))])),
  leaves,
});

describe('sessions named across portions', () => {
  it('are those asleep in a later portion whose path holds an earlier portion’s summary leaf before its end', () => {
    const portions = [portion({ resumed: ['r1', 'r2'] }, ['o2', 'l3']), portion({ older: ['o1', 'o2', 'o3'], last: ['l1', 'l2', 'l3'], other: ['x1'] })];
    // `last` ends on its leaf: taking in the portion already named it by its last atom
    expect(namedAcrossPortions(portions)).toEqual(['older']);
  });

  it('leave alone a session named by a summary from a later portion (one catalog reads that after it too)', () => {
    expect(namedAcrossPortions([portion({ older: ['o1', 'o2', 'o3'] }), portion({}, ['o2'])])).toEqual([]);
  });

  it('carry every earlier portion’s leaves forward', () => {
    const portions = [portion({}, ['a1']), portion({}, ['b1']), portion({ a: ['a1', 'a2'], b: ['b1', 'b2'], c: ['c1', 'c2'] })];
    expect(namedAcrossPortions(portions)).toEqual(['a', 'b']);
  });

  it('wake a session whose earlier atom hashes as its leaf does, when that hash is an earlier summary’s leaf', () => {
    // two uuids that hash alike: the earlier atom is told from the leaf by its place, not its hash
    const alike = uuidHash('x2');
    const portions: PortionReach[] = [portion({}, ['x2']), { asleep: new Map([['s', Uint32Array.of(uuidHash('x1'), alike, alike)]]), leaves: [] }];
    expect(namedAcrossPortions(portions)).toEqual(['s']);
  });

  it('tell uuids apart by their ends, where random ones and ones made by counting differ', () => {
    const counted = (n: number) => `3bfb56f0-357c-4ce2-af44-${String(n).padStart(12, '0')}`;
    const hashes = new Set(Array.from({ length: 10_000 }, (_, n) => uuidHash(counted(n))));
    const random = new Set(Array.from({ length: 10_000 }, () => uuidHash(crypto.randomUUID())));
    expect(hashes.size).toBe(10_000);
    expect(random.size).toBeGreaterThan(9_990);
    expect(uuidHash('4c1d56f0-357c-4ce2-af44-000000000001')).not.toBe(uuidHash(counted(1)));
  });
});
