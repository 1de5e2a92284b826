// A `summary` line names the sessions whose active path holds its leaf (the newest such summary
// wins: catalog.ts). Read in one catalog in the first index's order, a summary in a newer file is
// known before the older session it names is read, so that session falls asleep named by it. A
// project cut into portions (index-portions.ts) is read by several catalogs at once: a summary
// from an earlier portion reaches a session asleep in a later one only by the last atom of its
// path (`SessionCatalog.adopt`). For the rest, each session asleep in such a project keeps its
// path's atoms, hashed, until the first index is done: one whose path holds the leaf of a summary
// read in an earlier portion is woken, and named as one catalog would have named it.

/** A uuid's first and last characters hashed: those tell ids apart (random in Claude Code's, a counter at the end in generated ones). */
const HASHED_ENDS = 8;

/**
 * 32-bit FNV-1a of a uuid's length and its first and last HASHED_ENDS characters (all of a
 * shorter one): every atom of a sleeping session's path is hashed, and the whole uuid took twice
 * as long. Two uuids that hash alike only wake a session to be read again (namedAcrossPortions).
 */
export function uuidHash(uuid: string): number {
  const length = uuid.length;
  let hash = Math.imul(0x811c9dc5 ^ length, 0x01000193);
  if (length <= 2 * HASHED_ENDS) {
    for (let i = 0; i < length; i++) hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
    return hash >>> 0;
  }
  for (let i = 0; i < HASHED_ENDS; i++) hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
  for (let i = length - HASHED_ENDS; i < length; i++) hash = Math.imul(hash ^ uuid.charCodeAt(i), 0x01000193);
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
  /** session key → its path's atoms, hashed, and its path's last atom */
  asleep: Map<string, { path: Uint32Array; leaf: string | null }>;
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
      for (const [key, { path, leaf }] of asleep) {
        const last = leaf === null ? -1 : uuidHash(leaf);
        if (path.some((hash) => hash !== last && earlier.has(hash))) wake.push(key);
      }
    }
    for (const leaf of leaves) earlier.add(uuidHash(leaf));
  }
  return wake;
}
