import { useState } from 'react';

const SHOWN_FIRST = 20_000;

/** Preformatted text, cut at 20,000 characters until the reader asks for the rest. */
export function LongText({ text, className }: { text: string; className?: string }) {
  const [whole, setWhole] = useState(false);
  const cut = !whole && text.length > SHOWN_FIRST;
  return (
    <>
      <pre className={className}>{cut ? text.slice(0, SHOWN_FIRST) : text}</pre>
      {cut && (
        <button type="button" className="show-all" onClick={() => setWhole(true)}>
          show all {text.length.toLocaleString()} characters
        </button>
      )}
    </>
  );
}
