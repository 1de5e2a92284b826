import { useEffect, useState } from 'react';
import { query } from '../lib/gql';
import type { ResultOf } from '../lib/graphql';
import { INDEXING } from './queries';

type Indexing = ResultOf<typeof INDEXING>['kernel']['indexing'];

// While the kernel reads its transcripts for the first time, how far it got (asked once a second
// until done: indexing has no subscription of its own).
export function IndexingProgress() {
  const [indexing, setIndexing] = useState<Indexing | null>(null);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const poll = (): void => {
      query(INDEXING)
        .then(({ kernel }) => {
          if (stopped) return;
          setIndexing(kernel.indexing);
          if (!kernel.indexing.done) timer = setTimeout(poll, 1000);
        })
        .catch(() => {
          if (!stopped) timer = setTimeout(poll, 2000);
        });
    };
    poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);
  if (!indexing || indexing.done) return null;
  const share = indexing.bytesTotal > 0 ? indexing.bytesDone / indexing.bytesTotal : 0;
  return (
    <div className="indexing" role="progressbar" aria-valuenow={Math.round(share * 100)} aria-valuemin={0} aria-valuemax={100}>
      Indexing {indexing.filesDone} of {indexing.filesTotal} files ({Math.round(share * 100)}%)
      <span className="indexing-bar" style={{ width: `${share * 100}%` }} />
    </div>
  );
}
