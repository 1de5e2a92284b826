import { lazy, Suspense } from 'react';
import type { Edit } from './DiffView';

// The diff library is loaded with the first diff shown, not with the page. A page older than the
// kernel's build (Loom upgraded while it was open) finds that file gone: it says so in place.
const DiffView = lazy(() => import('./DiffView').catch(() => ({ default: DiffUnavailable })));

function DiffUnavailable(_: { edits: Edit[] }) {
  return <p className="diff-loading">the diff view did not load: reload the page</p>;
}

/**
 * An edit of a file as a unified diff: its path, then each replacement's removed and added lines.
 * `cut`: the chat holds only the first characters of some string of it, so past them the diff
 * can miss a change, or show one that is not there, until "show all".
 */
export function EditDiff({ path, edits, cut }: { path: string; edits: Edit[]; cut: boolean }) {
  return (
    <div className="edit-diff">
      <p className="file-path">{path}</p>
      {cut && <p className="diff-note">compared on the first characters of each side, as the chat holds them: “show all” compares the whole</p>}
      <Suspense fallback={<p className="diff-loading">loading the diff…</p>}>
        <DiffView edits={edits} />
      </Suspense>
    </div>
  );
}
