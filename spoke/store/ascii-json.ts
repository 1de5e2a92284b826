import { isAscii } from 'node:buffer';

// Text Loom writes for itself and reads back at every start (the index cache, sessions' goals)
// is kept in ASCII, because decoding is most of reading it: on Node 20 the UTF-8 decoder runs at
// about 100 MB/s here, while ASCII decoded as Latin-1 (the same characters) is a copy.

/** JSON with every character past ASCII as a `\uXXXX` escape (one per UTF-16 unit: a pair stays a pair). */
export const asciiJson = (value: unknown): string => escapedPastAscii(JSON.stringify(value));

const PAST_ASCII = /[\u0080-\uffff]/g;

/**
 * `text` with each UTF-16 unit past ASCII written as `\uXXXX`. Found by a regular expression and
 * copied between, rather than replaced by one with a call per match: most goals have a title
 * clipped with `…`, and that replace made writing them cost three times their JSON.stringify.
 */
function escapedPastAscii(text: string): string {
  let out = '';
  let from = 0;
  PAST_ASCII.lastIndex = 0;
  for (let match = PAST_ASCII.exec(text); match !== null; match = PAST_ASCII.exec(text)) {
    const c = text.charCodeAt(match.index);
    out += `${text.slice(from, match.index)}${c < 0x100 ? '\\u00' : c < 0x1000 ? '\\u0' : '\\u'}${c.toString(16)}`;
    from = match.index + 1;
  }
  return out + text.slice(from);
}

/** UTF-8 bytes as text, at once when they are all ASCII. */
export const decodeText = (bytes: Buffer): string => bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
