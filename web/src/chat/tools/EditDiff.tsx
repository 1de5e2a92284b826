import { lazy, Suspense } from 'react';
import type { Edit } from './DiffLines';

// The diff library is loaded with the first diff shown, not with the page. A page older than the
// kernel's build (Loom upgraded while it was open) finds that file gone: it says so in place.
const DiffLines = lazy(() => import('./DiffLines').catch(() => ({ default: DiffUnavailable })));

function DiffUnavailable(_: { edit: Edit }) {
  return <p className="diff-loading">the diff view did not load: reload the page</p>;
}

/** An edit of a file as a unified diff: its path, then each replacement's removed and added lines. */
export function EditDiff({ path, edits }: { path: string; edits: Edit[] }) {
  return (
    <div className="edit-diff">
      <p className="file-path">{path}</p>
      <Suspense fallback={<p className="diff-loading">loading the diff…</p>}>
        {edits.map((edit, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a call's edits never reorder
          <DiffLines key={i} edit={edit} />
        ))}
      </Suspense>
    </div>
  );
}
