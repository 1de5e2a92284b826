// A `summary` line names the sessions whose active path holds its leaf (the newest such summary
// wins: catalog.ts). Read in one catalog in the first index's order, a summary in a newer file is
// known before the older session it names is read, so that session falls asleep named by it. A
// project cut into portions (index-portions.ts) is read by several catalogs at once: a summary
// from an earlier portion reaches a session asleep in a later one only by the last atom of its
// path (`SessionCatalog.adopt`). For the rest, each session asleep in such a project keeps its
// path's atoms, hashed, until the first index is done: one whose path holds the leaf of a summary
// read in an earlier portion is woken, and named as one catalog would have named it.

/** 32-bit FNV-1a of a uuid's characters. */
export function uuidHash(uuid: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < uuid.length; i++) hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
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
