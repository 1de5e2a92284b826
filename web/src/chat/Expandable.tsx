import { type ReactNode, useState } from 'react';
import type { HeldText } from './held-text';

interface Props {
  held: HeldText;
  /** draws a text: the part held, or the whole once read */
  render: (text: string) => ReactNode;
  className?: string;
}

/**
 * A text the chat may hold only the first characters of: drawn as held, with "show all", which
 * reads the rest and draws the whole; "show less" lets the whole go again (it may be megabytes).
 */
export function Expandable({ held, render, className }: Props) {
  const [whole, setWhole] = useState<string | null>(null);
  const [reading, setReading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { rest } = held;
  if (!rest) return render(held.text);
  const show = async () => {
    setReading(true);
    setError(null);
    try {
      setWhole(await rest.read());
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setReading(false);
    }
  };
  const size = rest.length === null ? '' : ` ${rest.length.toLocaleString()} characters`;
  return (
    <div className={className ? `held ${className}` : 'held'} data-state={whole === null ? 'cut' : 'whole'}>
      <div className="held-text">{render(whole ?? held.text)}</div>
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
