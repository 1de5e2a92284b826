import { isAscii } from 'node:buffer';

// Text Loom writes for itself and reads back at every start (the index cache, sessions' goals)
// is kept in ASCII, because decoding is most of reading it: on Node 20 the UTF-8 decoder runs at
// about 100 MB/s here, while ASCII decoded as Latin-1 (the same characters) is a copy.

/** JSON with every character past ASCII as a `\uXXXX` escape (one per UTF-16 unit: a pair stays a pair). */
export const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** UTF-8 bytes as text, at once when they are all ASCII. */
export const decodeText = (bytes: Buffer): string => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
