// A `summary` line names the sessions whose active path holds its leaf (the newest such summary
// wins: catalog.ts). Read in one catalog in the first index's order, a summary in a newer file is
// known before the older session it names is read, so that session falls asleep named by it. A
// project cut into portions (index-portions.ts) is read by several catalogs at once: a summary
// from an earlier portion reaches a session asleep in a later one only by the last atom of its
// path (`SessionCatalog.adopt`). For the rest, each session asleep in such a project keeps its
// path's atoms, hashed, until the first index is done: one whose path holds the leaf of a summary
// read in an earlier portion is woken, and named as one catalog would have named it.

/** Characters hashed at each end of a uuid: its random part in a v4 uuid, and the part that differs line by line in ids made by counting. */
const HASHED_END = 8;

/**
 * 32-bit FNV-1a of a uuid's first and last characters, not all 36: every atom of every session of
 * a cut project is hashed as it falls asleep. A match by chance only wakes a session for nothing.
 */
export function uuidHash(uuid: string): number {
  const n = uuid.length;
  const middle = n > 2 * HASHED_END ? HASHED_END : -1;
  let hash = 0x811c9dc5;
  for (let i = 0; i < n; i++) {
    if (i === middle) i = n - HASHED_END;
    hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
  }
  return hash >>> 0;
}

/** The atoms of a path, hashed (a loop: Uint32Array.from with a mapping function takes each through the iterator protocol). */
export function pathHashes(path: readonly { uuid: string }[]): Uint32Array {
  const hashes = new Uint32Array(path.length);
  for (let i = 0; i < path.length; i++) hashes[i] = uuidHash(path[i].uuid);
  return hashes;
}

/** What a portion of a cut project holds for this: its sessions asleep, and the leaves of the summaries read in it. */
export interface PortionReach {
  /** session key → its path's atoms, hashed, the last its leaf */
  asleep: Map<string, Uint32Array>;
  leaves: string[];
}

/**
 * The sessions to wake, of one project's portions in the first index's order: each asleep in a
 * portion whose path holds, before its last atom, the leaf of a summary read in an earlier one. A
 * hash that matches by chance wakes a session for nothing; the wake names it as it should be.
 */
export function namedAcrossPortions(portions: readonly PortionReach[]): string[] {
  const earlier = new Set<number>();
  const wake: string[] = [];
  for (const { asleep, leaves } of portions) {
    if (earlier.size > 0) {
      for (const [key, path] of asleep) {
        // the path's last atom is its leaf, which a summary reaches without this (SessionCatalog.adopt)
        for (let i = 0; i < path.length - 1; i++) {
          if (earlier.has(path[i])) {
            wake.push(key);
            break;
          }
        }
      }
    }
    for (const leaf of leaves) earlier.add(uuidHash(leaf));
  }
  return wake;
}
