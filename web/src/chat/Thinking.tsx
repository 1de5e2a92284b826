import { ExpandableText } from './Expandable';
import type { HeldText } from './held-text';
import { TextPieces } from './TextPieces';

/** The model's thinking, folded away: most readers want the answer. */
export function Thinking({ held }: { held: HeldText }) {
  if (!held.text) return <div className="thinking-hidden">thinking (not kept in the transcript)</div>;
  return (
    <details className="thinking">
      <summary>thinking</summary>
      <ExpandableText
        held={held}
        render={(text) => (
          <pre>
            <TextPieces text={text} />
          </pre>
        )}
      />
    </details>
  );
}
