import { plainTitle } from '../lib/plain-title';
import { when } from '../lib/when';
import { HostName } from '../tabs/host-name';
import { fieldLabel, hitSessionName } from './hit';
import type { SearchHit } from './use-search';

interface Props {
  hit: SearchHit;
  id: string;
  selected: boolean;
  /** several hosts are served: name each hit's */
  showHost: boolean;
  onOpen: (hit: SearchHit) => void;
}

/** One result in the list: the session, where in the line, when, and the words around the match with the match marked. */
export function HitOption({ hit, id, selected, showHost, onOpen }: Props) {
  const name = hitSessionName(hit);
  const openable = hit.session !== null;
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: the search box keeps the focus and opens the selected option on Enter
    <div
      id={id}
      role="option"
      tabIndex={-1}
      aria-selected={selected}
      aria-disabled={!openable || undefined}
      className="search-hit"
      data-hit={hit.id}
      onClick={() => openable && onOpen(hit)}
    >
      <span className="search-hit-head">
        <span className="search-hit-session">{showHost && hit.session ? <HostName host={hit.session.host.name} name={name} /> : plainTitle(name)}</span>
        <span className="search-hit-field">{fieldLabel(hit)}</span>
        <time className="search-hit-time" dateTime={hit.at}>
          {when(hit.at)}
        </time>
      </span>
      <span className="search-hit-snippet">
        {hit.snippet.map((part, i) =>
          // parts never move or change in place: their place is their identity
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          part.hit ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
        )}
      </span>
    </div>
  );
}
