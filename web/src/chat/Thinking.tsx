/** The model's thinking, folded away: most readers want the answer. */
export function Thinking({ text }: { text: string }) {
  if (!text) return <div className="thinking-hidden">thinking (not kept in the transcript)</div>;
  return (
    <details className="thinking">
      <summary>thinking</summary>
      <pre>{text}</pre>
    </details>
  );
}
