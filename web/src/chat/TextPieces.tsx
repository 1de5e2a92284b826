/** Characters per piece of a long text: about 200 lines of a log. */
const PIECE = 16_000;

/**
 * A long text inside a <pre>, as pieces the browser lays out only near the view
 * (`content-visibility: auto` in chat.css): a 10 MiB text laid out at once held Chromium for
 * seconds. Each piece ends at a line's end where there is one near.
 */
export function TextPieces({ text }: { text: string }) {
  if (text.length <= PIECE) return text;
  const starts: number[] = [];
  for (let start = 0; start < text.length; start = pieceEnd(text, start)) starts.push(start);
  return starts.map((start, i) => (
    <span key={start} className="text-piece">
      {text.slice(start, starts[i + 1])}
    </span>
  ));
}

/** after the first newline past PIECE characters, or at twice PIECE (never inside a surrogate pair) */
function pieceEnd(text: string, start: number): number {
  const newline = text.indexOf('\n', start + PIECE);
  if (newline !== -1 && newline < start + 2 * PIECE) return newline + 1;
  const end = Math.min(start + 2 * PIECE, text.length);
  const code = text.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end + 1 : end;
}
