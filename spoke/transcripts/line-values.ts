import { type Json, time } from './fields';
import { keyTimes, type LineValues, type Plan } from './line-scanner-plans';

// One line's wanted values, kept by key number (line-scanner-plans.ts) rather than built into an
// object: the line scanner writes them from its tape, and a line left to JSON.parse is read into
// them from the parsed object along the same plan, so readRecord (record.ts) reads one form, with
// loads from one array where an object's fields would each be a property look-up of its own
// shape. An object the plan reads into is held as AN_OBJECT, its fields under keys of their own;
// an array's items are objects, as the scanner or JSON.parse made them; a time the plan reads as
// one (its `time` Want) is held as the epoch ms time() reads from it. One array per thread,
// written for a line and emptied once its record is read (record.ts): a record copies out what it
// keeps.

/** Stands for an object whose fields the plan reads. */
export const AN_OBJECT: Json = Object.freeze({});

/** The thread's values: the line's last read, or nothing. */
export const lineValues: LineValues = [];
const values = lineValues as unknown[];
/**
 * The keys written since the values were last emptied, the first `writtenCount` (an array's
 * length set back costs a call into the runtime, once per line): emptying them alone is cheaper
 * than emptying every key.
 */
const written: number[] = [];
let writtenCount = 0;

/** Empties the values for the next line (and so they hold nothing of the last one). */
export function emptyValues(): void {
  for (let i = 0; i < writtenCount; i++) values[written[i]] = undefined;
  writtenCount = 0;
}

export function keepValue(key: number, value: unknown): void {
  values[key] = value;
  written[writtenCount++] = key;
}

/** The values `plan` wants from `json`, an object JSON.parse gave: what the scanner gives for the same line. */
export function valuesOf(json: Json, plan: Plan): LineValues {
  emptyValues();
  keepFields(json, plan);
  return lineValues;
}

function keepFields(json: Json, plan: Plan): void {
  for (const [name, { key, plan: within }] of plan.fields ?? []) {
    if (!Object.hasOwn(json, name)) continue;
    const value = json[name];
    if (within.fields !== null && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      keepValue(key, AN_OBJECT);
      keepFields(value as Json, within);
    } else {
      keepValue(key, keyTimes[key] ? time(value) : value);
    }
  }
}
