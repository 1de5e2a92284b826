import { diffLines } from 'diff';

export interface Edit {
  before: string;
  after: string;
}

/** One replacement, line by line: removed lines `-`, added `+`, the lines around them as they were. */
export default function DiffLines({ edit }: { edit: Edit }) {
  return (
    <pre className="diff">
      {diffLines(edit.before, edit.after).map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff, in order
        <span key={i} className={part.added ? 'diff-added' : part.removed ? 'diff-removed' : 'diff-same'}>
          {prefixed(part.value, part.added ? '+' : part.removed ? '-' : ' ')}
        </span>
      ))}
    </pre>
  );
}

/** Each line of a diff part with its sign, as a unified diff shows it. */
function prefixed(value: string, sign: string): string {
  return value
    .replace(/\n$/, '')
    .split('\n')
    .map((l) => `${sign} ${l}\n`)
    .join('');
}
