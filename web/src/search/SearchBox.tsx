import { useNavigate } from '@tanstack/react-router';
import { type KeyboardEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { usePhone } from '../lib/use-phone';
import { useHosts } from '../network/hosts';
import { HitOption } from './HitOption';
import { hitPlace } from './hit';
import { SearchStatus } from './SearchStatus';
import { type SearchHit, useSearch } from './use-search';
import './search.css';

// The top bar's search over every line of every session. `/` focuses it from anywhere but a
// field. The box is an ARIA combobox: the focus stays in it while ↑/↓ choose a result, Enter
// opens the chosen one (the first by default) and Escape closes the list and gives the focus
// back to where it was. On a phone the bar has only a button; the box then spans the bar.
export function SearchBox() {
  const phone = usePhone();
  const { hosts } = useHosts();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  /** the list under the box */
  const [listOpen, setListOpen] = useState(false);
  /** a phone's box, over the bar */
  const [expanded, setExpanded] = useState(false);
  const [active, setActive] = useState(0);
  /** Enter came before the answer to the words typed: open the first hit once it lands */
  const [openWhenAnswered, setOpenWhenAnswered] = useState(false);
  const results = useSearch(text);
  const input = useRef<HTMLInputElement>(null);
  const root = useRef<HTMLElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const listId = useId();
  const optionId = (i: number) => `${listId}-${i}`;

  const words = text.trim();
  const answered = results.query === words;
  const shown = listOpen && words !== '';
  const showsBox = !phone || expanded;

  /** where the focus goes once a close is drawn: back where it was, or out of the box */
  const focusAfterClose = useRef<HTMLElement | 'out' | null>(null);
  const close = useCallback((focusBack: boolean) => {
    setListOpen(false);
    setExpanded(false);
    setOpenWhenAnswered(false);
    if (focusBack) focusAfterClose.current = returnTo.current ?? 'out';
    returnTo.current = null;
  }, []);
  useEffect(() => {
    const back = focusAfterClose.current;
    if (back === null) return;
    focusAfterClose.current = null;
    if (back !== 'out' && back.isConnected && back !== document.body) back.focus();
    else input.current?.blur();
  });

  const open = useCallback(
    (hit: SearchHit) => {
      if (!hit.session) return;
      close(false);
      input.current?.blur();
      void hitPlace(hit).then(
        (place) => place && navigate({ to: '/s/$id', params: { id: place.sessionId }, search: place.search, state: { searchHit: Date.now() } }),
        // the line could not be placed (its host went away meanwhile): its session still opens
        () => navigate({ to: '/s/$id', params: { id: hit.session!.id } }),
      );
    },
    [close, navigate],
  );

  // `/` from anywhere but a field (and not behind a modal dialog, which keeps the page inert)
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== '/' || e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select, [contenteditable]')) return;
      if (document.querySelector('dialog:modal')) return;
      e.preventDefault();
      returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      if (input.current) input.current.focus();
      else setExpanded(true);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // a phone's box is drawn only once opened: focus it then
  useEffect(() => {
    if (expanded) input.current?.focus();
  }, [expanded]);

  // a press outside closes the list (and a phone's box)
  useEffect(() => {
    if (!listOpen && !expanded) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close(false);
    };
    document.addEventListener('pointerdown', onPointer);
    return () => document.removeEventListener('pointerdown', onPointer);
  }, [listOpen, expanded, close]);

  // new words choose the first hit again
  useEffect(() => setActive(0), [results.query]);
  const activeId = optionId(active);
  useEffect(() => {
    if (shown) document.getElementById(activeId)?.scrollIntoView({ block: 'nearest' });
  }, [shown, activeId]);

  // Enter pressed before the answer came: open the first hit as soon as it does
  useEffect(() => {
    if (!openWhenAnswered || !answered) return;
    setOpenWhenAnswered(false);
    if (results.hits.length > 0) open(results.hits[0]);
  }, [openWhenAnswered, answered, results.hits, open]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setListOpen(true);
      const last = results.hits.length - 1;
      setActive((i) => (e.key === 'ArrowDown' ? Math.min(last, i + 1) : Math.max(0, i - 1)));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      if (words === '') return;
      setListOpen(true);
      if (!answered) setOpenWhenAnswered(true);
      else if (results.hits[active]) open(results.hits[active]);
    }
  };

  return (
    <search
      className="search"
      ref={root}
      data-expanded={phone && expanded ? '' : undefined}
      // the focus gone elsewhere (Tab): the list closes
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setListOpen(false)}
    >
      {phone && (
        <button
          type="button"
          className="search-open"
          hidden={expanded}
          aria-label="Search"
          onClick={(e) => {
            returnTo.current = e.currentTarget;
            setExpanded(true);
          }}
        >
          <svg aria-hidden="true" width="18" height="18" viewBox="0 0 18 18" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="7.5" cy="7.5" r="5.5" />
            <path d="M11.5 11.5 16 16" />
          </svg>
        </button>
      )}
      {showsBox && (
        <div className="search-box">
          <input
            ref={input}
            type="search"
            role="combobox"
            aria-label="Search every session"
            aria-autocomplete="list"
            aria-expanded={shown}
            aria-controls={shown ? listId : undefined}
            aria-activedescendant={shown && results.hits[active] ? activeId : undefined}
            placeholder="Search  /"
            autoComplete="off"
            spellCheck={false}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setListOpen(true);
            }}
            onFocus={() => setListOpen(true)}
            onKeyDown={onKeyDown}
          />
          {phone && (
            <button type="button" className="search-close" onClick={() => close(true)}>
              Close
            </button>
          )}
        </div>
      )}
      {shown && showsBox && (
        // biome-ignore lint/a11y/noStaticElementInteractions: a press in the list keeps the focus in the box (a hit opens on click)
        <div className="search-panel" onMouseDown={(e) => e.preventDefault()}>
          <SearchStatus results={results} answered={answered} />
          {results.hits.length > 0 && (
            <div className="search-hits" role="listbox" id={listId} aria-label="Search results">
              {results.hits.map((hit, i) => (
                <HitOption key={hit.id} hit={hit} id={optionId(i)} selected={i === active} showHost={hosts.length > 1} onOpen={open} />
              ))}
            </div>
          )}
          {results.hasNextPage && answered && (
            <button type="button" className="search-more" disabled={results.loading} onClick={results.more}>
              {results.loading ? 'loading…' : 'More results'}
            </button>
          )}
        </div>
      )}
    </search>
  );
}
