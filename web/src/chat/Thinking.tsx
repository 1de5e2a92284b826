import { ExpandableText } from './Expandable';
import type { HeldText } from './held-text';
import { TextPieces } from './TextPieces';

/** The model's thinking, folded away: most readers want the answer. `opened`: a search hit is in it. */
export function Thinking({ held, opened = false }: { held: HeldText; opened?: boolean }) {
  if (!held.text) return <div className="thinking-hidden">thinking (not kept in the transcript)</div>;
  return (
    <details className="thinking" open={opened}>
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
