import { ExpandableText } from './Expandable';
import type { HeldText } from './held-text';
import { Markdown } from './Markdown';
import { TextPieces } from './TextPieces';

/** Markdown takes time in step with its length (a 10 MiB block held Chromium for over a minute): a longer text shows as written. */
const MARKDOWN_MAX = 100_000;

const draw = (text: string) =>
  text.length <= MARKDOWN_MAX ? (
    <Markdown text={text} />
  ) : (
    <pre className="plain-text">
      <TextPieces text={text} />
    </pre>
  );

/** A text block: Markdown; collapsed to a few lines while the chat holds only its first characters. */
export function Prose({ held }: { held: HeldText }) {
  return <ExpandableText held={held} render={draw} className="prose" />;
}
