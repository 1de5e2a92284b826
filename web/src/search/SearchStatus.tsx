import type { SearchState } from './use-search';

/**
 * What the list says besides its hits, read out as it changes: the kernel's sentence for a query
 * it cannot take, "searching…", "No lines match", and when hits may be missing (history still
 * being indexed, or a host that did not answer).
 */
export function SearchStatus({ results, answered }: { results: SearchState; answered: boolean }) {
  return (
    <div className="search-status" role="status">
      {results.error && answered ? (
        <p className="error">{results.error}</p>
      ) : !answered ? (
        <p>searching…</p>
      ) : (
        results.hits.length === 0 && <p>No lines match</p>
      )}
      {answered && !results.error && !results.complete && (
        <p className="search-incomplete">
          {results.unreachableHosts.length > 0
            ? `${results.unreachableHosts.join(', ')} did not answer: results may be missing`
            : 'still indexing: results may be missing'}
        </p>
      )}
    </div>
  );
}
