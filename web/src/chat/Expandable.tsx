import { type ReactNode, useState } from 'react';
import type { HeldText } from './held-text';

interface Props<T> {
  /** what the chat holds: a text's first characters, or a tool call's input with its strings cut */
  held: T;
  /** reads the whole; null when `held` is the whole */
  readWhole: (() => Promise<T>) | null;
  /** what "show all" says of the whole: " 12,345 characters" */
  size?: string;
  /** draws the part held (`cut`), or the whole once read */
  render: (value: T, cut: boolean) => ReactNode;
  className?: string;
}

/**
 * Something the chat may hold only part of: drawn as held, with "show all", which reads the rest
 * and draws the whole; "show less" lets the whole go again (it may be megabytes).
 */
export function Expandable<T>({ held, readWhole, size = '', render, className }: Props<T>) {
  const [whole, setWhole] = useState<{ value: T } | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!readWhole) return render(held, false);
  const show = async () => {
    setReading(true);
    setError(null);
    try {
      setWhole({ value: await readWhole() });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setReading(false);
    }
  };
  return (
    <div className={className ? `held ${className}` : 'held'} data-state={whole === null ? 'cut' : 'whole'}>
      <div className="held-text">{whole === null ? render(held, true) : render(whole.value, false)}</div>
      {whole === null ? (
        <button type="button" className="show-all" disabled={reading} onClick={() => void show()}>
          {reading ? 'reading…' : `show all${size}`}
        </button>
      ) : (
        <button type="button" className="show-all" onClick={() => setWhole(null)}>
          show less
        </button>
      )}
      {error && <div className="error">Could not read the rest: {error}</div>}
    </div>
  );
}

/** A text as the chat holds it (held-text.ts), expandable. */
export function ExpandableText({ held, render, className }: { held: HeldText; render: (text: string) => ReactNode; className?: string }) {
  const { rest } = held;
  const size = rest?.length == null ? '' : ` ${rest.length.toLocaleString()} characters`;
  return <Expandable held={held.text} readWhole={rest?.read ?? null} size={size} render={render} className={className} />;
}
