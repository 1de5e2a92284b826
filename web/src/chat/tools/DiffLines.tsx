import { type ChangeObject, diffLines } from 'diff';
import { useState } from 'react';
import { TextPieces } from '../TextPieces';

export interface Edit {
  before: string;
  after: string;
}

/** Past this, two long and very different texts are shown as all removed then all added: diffing them could hold the tab. */
const DIFF_TIMEOUT_MS = 300;
/** Unchanged lines kept on each side of a change; a longer unchanged run folds. */
const CONTEXT = 3;

/** One replacement, line by line: removed lines `-`, added `+`, the lines around them as they were. */
export default function DiffLines({ edit }: { edit: Edit }) {
  const parts = diffLines(edit.before, edit.after, { timeout: DIFF_TIMEOUT_MS }) ?? wholeReplacement(edit);
  return (
    <pre className="diff">
      {parts.map((part, i) =>
        part.added || part.removed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order
          <span key={i} className={part.added ? 'diff-added' : 'diff-removed'}>
            <TextPieces text={prefixed(linesOf(part.value), part.added ? '+' : '-')} />
          </span>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order
          <Unchanged key={i} lines={linesOf(part.value)} first={i === 0} last={i === parts.length - 1} />
        ),
      )}
    </pre>
  );
}

/** A run of unchanged lines: the few next to a change, the rest folded until asked for. */
function Unchanged({ lines, first, last }: { lines: string[]; first: boolean; last: boolean }) {
  const [open, setOpen] = useState(false);
  const head = first ? 0 : CONTEXT;
  const tail = last ? 0 : CONTEXT;
  if (open || lines.length <= head + tail + 1) {
    return (
      <span className="diff-same">
        <TextPieces text={prefixed(lines, ' ')} />
      </span>
    );
  }
  const hidden = lines.length - head - tail;
  return (
    <>
      {head > 0 && <span className="diff-same">{prefixed(lines.slice(0, head), ' ')}</span>}
      <button type="button" className="diff-fold" onClick={() => setOpen(true)}>
        ⋯ {hidden.toLocaleString()} unchanged {hidden === 1 ? 'line' : 'lines'}
      </button>
      {'\n'}
      {tail > 0 && <span className="diff-same">{prefixed(lines.slice(-tail), ' ')}</span>}
    </>
  );
}

function wholeReplacement({ before, after }: Edit): ChangeObject<string>[] {
  const parts: ChangeObject<string>[] = [
    { value: before, added: false, removed: true, count: 0 },
    { value: after, added: true, removed: false, count: 0 },
  ];
  return parts.filter((part) => part.value !== '');
}

const linesOf = (value: string): string[] => value.replace(/\n$/, '').split('\n');

/** Each line with its sign, as a unified diff shows it. */
const prefixed = (lines: string[], sign: string): string => lines.map((l) => `${sign} ${l}\n`).join('');
