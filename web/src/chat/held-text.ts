import { query } from '../lib/gql';
import { isWhole, longestString } from './characters';
import { WHOLE_ATOM } from './queries';
import type { ToolUseBlock, WholeBlock } from './types';

// A text as the chat holds it: whole, or only its first characters (queries.ts says why), with
// the way to read the rest when the reader asks for it ("show all").

/** Where a block is: the atom that holds it, and its place among the atom's blocks. */
export interface BlockPlace {
  atomId: string;
  index: number;
}

/** A block and its place. */
export interface Placed<B> {
  block: B;
  at: BlockPlace;
}

export interface HeldText {
  text: string;
  /** set when `text` is only the first characters */
  rest: {
    /** characters of the whole, when the API says */
    length: number | null;
    read: () => Promise<string>;
  } | null;
}

async function readWhole<T extends WholeBlock['__typename']>(place: BlockPlace, type: T): Promise<Extract<WholeBlock, { __typename: T }>> {
  const { atom } = await query(WHOLE_ATOM, { id: place.atomId });
  const block = atom?.content[place.index];
  if (block?.__typename !== type) throw new Error('the transcript no longer holds this block');
  return block as Extract<WholeBlock, { __typename: T }>;
}

/** The text of a text, thinking or tool result block, given what the API said of its length. */
export function heldText(text: string, length: number, place: BlockPlace, type: 'TextBlock' | 'ThinkingBlock' | 'ToolResultBlock'): HeldText {
  if (isWhole(text, length)) return { text, rest: null };
  const read = async () => {
    const whole = await readWhole(place, type);
    return whole.__typename === 'ThinkingBlock' ? whole.thinking : whole.text;
  };
  return { text, rest: { length, read } };
}

/** A tool call's input as the chat holds it: its strings are cut when one was longer than the chat asks for. */
export interface HeldInput {
  input: unknown;
  /** set when a string of `input` is cut */
  rest: {
    /** characters of the input's longest string */
    longest: number;
    read: () => Promise<unknown>;
  } | null;
}

export function heldInput(call: ToolUseBlock, place: BlockPlace): HeldInput {
  if (longestString(call.input) >= call.longestString) return { input: call.input, rest: null };
  return { input: call.input, rest: { longest: call.longestString, read: async () => (await readWhole(place, 'ToolUseBlock')).input } };
}

/** The same held text, each form of it passed through `change` (the rest too, once read). */
export function mapHeld(held: HeldText, change: (text: string) => string): HeldText {
  const { rest } = held;
  return { text: change(held.text), rest: rest && { length: rest.length, read: async () => change(await rest.read()) } };
}
