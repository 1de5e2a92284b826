import { ExpandableText } from './Expandable';
import type { HeldText } from './held-text';
import { TextPieces } from './TextPieces';

/** Preformatted text (a tool's input or output), with "show all" while the chat holds only its first characters. */
export function LongText({ held, className }: { held: HeldText; className?: string }) {
  return (
    <ExpandableText
      held={held}
      render={(text) => (
        <pre className={className}>
          <TextPieces text={text} />
        </pre>
      )}
    />
  );
}
