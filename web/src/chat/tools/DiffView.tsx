import { type ChangeObject, diffLines } from 'diff';
import { useMemo, useState } from 'react';
import { TextPieces } from '../TextPieces';

export interface Edit {
  before: string;
  after: string;
}

/**
 * The time all of a call's edits may take to diff: past it, an edit is shown as all removed then
 * all added (long, very different texts could hold the tab for seconds), and says so.
 */
const DIFF_BUDGET_MS = 300;
/** Unchanged lines kept on each side of a change; a longer unchanged run folds. */
const CONTEXT = 3;

type Parts = { parts: ChangeObject<string>[]; whole: boolean };

/** A call's replacements, each line by line: removed lines `-`, added `+`, the lines around them as they were. */
export default function DiffView({ edits }: { edits: Edit[] }) {
  const diffs = useMemo(() => diffAll(edits), [edits]);
  return (
    <>
      {diffs.map(({ parts, whole }, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a call's edits never reorder
        <div key={i} className="diff-edit">
          {whole && <p className="diff-note">too different to compare line by line in time: shown as replaced whole</p>}
          <pre className="diff">
            {parts.map((part, j) =>
              part.added || part.removed ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order
                <span key={j} className={part.added ? 'diff-added' : 'diff-removed'}>
                  <TextPieces text={prefixed(linesOf(part.value), part.added ? '+' : '-')} />
                </span>
              ) : (
                // keyed by the line it starts at: a fold opened stays with its lines when the diff is drawn again whole
                <Unchanged key={`same-${lineAt(parts, j)}`} lines={linesOf(part.value)} first={j === 0} last={j === parts.length - 1} />
              ),
            )}
          </pre>
        </div>
      ))}
    </>
  );
}

/** Each edit's diff, sharing one time budget; an edit whose diff does not finish in what is left is replaced whole. */
function diffAll(edits: Edit[]): Parts[] {
  const deadline = performance.now() + DIFF_BUDGET_MS;
  return edits.map((edit) => {
    const left = deadline - performance.now();
    const parts = left > 0 ? diffLines(edit.before, edit.after, { timeout: left }) : undefined;
    return parts ? { parts, whole: false } : { parts: replacedWhole(edit), whole: true };
  });
}

/** A run of unchanged lines: the few next to a change, the rest folded until asked for. */
function Unchanged({ lines, first, last }: { lines: string[]; first: boolean; last: boolean }) {
  const [open, setOpen] = useState(false);
  const head = first ? 0 : CONTEXT;
  const tail = last ? 0 : CONTEXT;
  if (open || lines.length <= head + tail + 1) return <Same lines={lines} />;
  const hidden = lines.length - head - tail;
  return (
    <>
      {head > 0 && <Same lines={lines.slice(0, head)} />}
      <button type="button" className="diff-fold" onClick={() => setOpen(true)}>
        ⋯ {hidden.toLocaleString()} unchanged {hidden === 1 ? 'line' : 'lines'}
      </button>
      {'\n'}
      {tail > 0 && <Same lines={lines.slice(-tail)} />}
    </>
  );
}

function Same({ lines }: { lines: string[] }) {
  return (
    <span className="diff-same">
      <TextPieces text={prefixed(lines, ' ')} />
    </span>
  );
}

function replacedWhole({ before, after }: Edit): ChangeObject<string>[] {
  const parts: ChangeObject<string>[] = [
    { value: before, added: false, removed: true, count: 0 },
    { value: after, added: true, removed: false, count: 0 },
  ];
  return parts.filter((part) => part.value !== '');
}

/** The line of the new text that part `index` starts at. */
function lineAt(parts: ChangeObject<string>[], index: number): number {
  let line = 0;
  for (const part of parts.slice(0, index)) if (!part.removed) line += linesOf(part.value).length;
  return line;
}

const linesOf = (value: string): string[] => value.replace(/\n$/, '').split('\n');

/** Each line with its sign, as a unified diff shows it. */
const prefixed = (lines: string[], sign: string): string => lines.map((l) => `${sign} ${l}\n`).join('');
