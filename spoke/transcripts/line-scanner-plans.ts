import type { Json } from './fields';
import { allocatePlan, planBytes, planWords } from './line-scanner-memory';

// What the line scanner reads of a line (a Want), compiled into the scanner's memory (a Plan) as
// line-scanner.as.ts reads it (its opening comment gives the layout). Keys are numbered across
// every plan, each place in a plan with a number of its own: the tape names a key by its number,
// and a line's values are kept by it (line-values.ts).

/**
 * What of a value is read. A Want with nothing set is the whole value, exactly as JSON.parse
 * gives it; so is a value of a shape the Want does not describe (a string where fields were
 * expected), which keeps odd lines exact at the cost of reading them whole.
 */
export interface Want {
  /** when the value is an object: only these keys are read, the others skipped */
  fields?: Record<string, Want>;
  /** when the value is an array: each item is read so */
  items?: Want;
  /**
   * when the value is a string: kept only when it starts with this, else read as absent. Printable
   * ASCII but for `"` and `\`; a string whose first characters are written as escapes is left to
   * JSON.parse.
   */
  prefix?: string;
  /**
   * the value is kept only when this passes, asked once the line is read, of the object holding
   * it (an array's item; outside arrays, an empty object) and of the line's values (a tool call's
   * input by the tool's name, a field only some record types are read for by the record's type);
   * until then it is stepped over like a value not wanted
   */
  when?: When;
  /**
   * the value is kept as the time it names (fields.ts `time`): epoch ms for a string that names
   * one, else null. Outside arrays only: it spares the index a string per line it reads only for
   * its time.
   */
  time?: boolean;
}

export type When = (holder: Json, line: LineValues) => boolean;

/** A line's values by key number, as line-values.ts keeps them. */
export type LineValues = readonly unknown[];

/** A Want made ready for the scanner: where it sits in the scanner's memory, and its keys by name. */
export interface Plan {
  readonly address: number;
  readonly fields: ReadonlyMap<string, PlanKey> | null;
}
interface PlanKey {
  readonly key: number;
  readonly plan: Plan;
  /** its entry in the scanner's memory, and its name's hash */
  readonly address: number;
  readonly hash: number;
}

/** Every key of every plan, by its number. */
export const keyNames: string[] = [];
export const keyWhens: (When | null)[] = [];
/** Whether the key's Want reads into its value (its fields or items) rather than keeping it whole. */
export const keyNests: boolean[] = [];
/** Whether the key's value is kept as the time it names (Want's `time`). */
export const keyTimes: boolean[] = [];

export function compileWant(want: Want, inArray = false): Plan {
  const fields = new Map<string, PlanKey>();
  for (const [name, child] of Object.entries(want.fields ?? {})) {
    const encoded = Buffer.from(name);
    const nameAddress = allocatePlan(encoded.length);
    planBytes.set(encoded, nameAddress);
    const key = keyNames.push(name) - 1;
    keyWhens.push(child.when ?? null);
    keyNests.push(child.fields !== undefined || child.items !== undefined);
    if (child.time && (inArray || child.fields || child.items || child.prefix !== undefined))
      throw new Error(`line-scanner: ${name} is read as a time, which is read outside arrays only and as nothing else`);
    keyTimes.push(child.time === true);
    const plan = compileWant(child, inArray);
    const address = allocatePlan(20);
    planWords.set([nameAddress, encoded.length, plan.address, key, child.when ? 1 : 0], address / 4);
    fields.set(name, { key, plan, address, hash: hashOf(encoded) });
  }
  // an item without the prefix would be left out of its array, where JSON.parse keeps it
  if (want.items?.prefix !== undefined) throw new Error("line-scanner: an array's items are not read by prefix");
  const items = want.items ? compileWant(want.items, true).address : 0;
  let prefix = 0;
  if (want.prefix !== undefined && !/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(want.prefix)) {
    throw new Error(`line-scanner: a prefix is printable ASCII but for " and \\, not ${JSON.stringify(want.prefix)}`);
  }
  const prefixBytes = want.prefix === undefined ? null : Buffer.from(want.prefix);
  if (prefixBytes) {
    prefix = allocatePlan(prefixBytes.length);
    planBytes.set(prefixBytes, prefix);
  }
  return writePlan(want.fields ? fields : null, items, prefix, prefixBytes?.length ?? 0);
}

/**
 * `plan` (one that reads an object) with the keys `names` stepped over, as values not wanted; its
 * other keys are the same, with the same numbers, so one line's values read either way the same.
 */
export function planWithout(plan: Plan, names: string[]): Plan {
  if (plan.fields === null) throw new Error('line-scanner: only a plan that reads an object has keys to leave out');
  const [, items, prefix, prefixLength] = planWords.subarray(plan.address / 4, plan.address / 4 + 4);
  return writePlan(new Map([...plan.fields].filter(([name]) => !names.includes(name))), items, prefix, prefixLength);
}

/** A plan's six words (line-scanner.as.ts), with its keys' hash table. */
function writePlan(fields: Map<string, PlanKey> | null, items: number, prefix: number, prefixLength: number): Plan {
  // at most half full, so a probe ends soon at an empty slot; none for a plan that reads no object
  const slots = fields ? Math.max(8, 2 ** Math.ceil(Math.log2(fields.size * 2))) : 0;
  const table = slots > 0 ? allocatePlan(slots * 4) : 0;
  for (const { address, hash } of fields?.values() ?? []) {
    let slot = hash & (slots - 1);
    while (planWords[table / 4 + slot] !== 0) slot = (slot + 1) & (slots - 1);
    planWords[table / 4 + slot] = address;
  }
  const address = allocatePlan(24);
  planWords.set([fields ? fields.size : -1, items, prefix, prefixLength, table, slots - 1], address / 4);
  return { address, fields };
}

/** The number of the key at `path` in `plan` (outside arrays); throws for a path the plan does not read. */
export function keyAt(plan: Plan, ...path: string[]): number {
  let at: PlanKey | undefined;
  let within: Plan | undefined = plan;
  for (const name of path) {
    at = within?.fields?.get(name);
    if (!at) throw new Error(`line-scanner: the plan does not read ${path.join('.')}`);
    within = at.plan;
  }
  if (!at) throw new Error('line-scanner: a key has a path');
  return at.key;
}

/** A key name's hash, as line-scanner.as.ts's nameHash takes it: its length and its first and last two bytes. */
function hashOf(name: Buffer): number {
  const length = name.length;
  if (length === 0) return 0;
  const last = length - 1;
  const bytes = (name[0] | (name[length > 1 ? 1 : 0] << 8) | (name[length > 1 ? last - 1 : last] << 16) | (name[last] << 24)) >>> 0;
  const hash = Math.imul((bytes ^ Math.imul(length, 0x9e3779b1)) >>> 0, 0x85ebca6b) >>> 0;
  return (hash ^ (hash >>> 15)) >>> 0;
}
