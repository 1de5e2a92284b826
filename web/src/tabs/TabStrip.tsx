import { useNavigate, useParams } from '@tanstack/react-router';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef } from 'react';
import { NewSessionButton } from '../drive/NewSessionButton';
import { LensControls } from '../lens/LensControls';
import { lensSessions } from '../lens/lens';
import { tabLens } from '../lens/lens-store';
import { age } from '../lib/age';
import { useHosts } from '../network/hosts';
import { StaleBadge } from '../network/StaleBadge';
import { TagDots } from '../tags/TagDots';
import { tagsOf, useTags } from '../tags/tags-store';
import { directories, filterSessions } from './filter';
import { tabFilter } from './filter-store';
import { groupRows, tabGrouping } from './grouping';
import { HostName } from './host-name';
import { ArchivedChip, LiveChip } from './live-chip';
import { useSessions } from './sessions';
import { shownName } from './shown-name';
import { staleSince } from './stale';

const ROW = 46;
const HEADER = 28;

// Every session as a tab, most recently active first, narrowed and ordered by the lens (lens/:
// tags, order, saved views), or grouped (grouping.ts). Virtualized: only the rows in view are in
// the DOM, so two thousand sessions cost what twenty do. `f` filters, `j`/`k` step.
export function TabStrip() {
  const { list, loaded, error } = useSessions();
  const { hosts } = useHosts();
  const tags = useTags();
  const filter = tabFilter.use();
  const lens = tabLens.use();
  const shown = useMemo(() => lensSessions(filterSessions(list, filter), lens, tags), [list, filter, lens, tags]);
  const grouping = tabGrouping.use();
  const grouped = useMemo(() => groupRows(shown, grouping, tags), [shown, grouping, tags]);
  const dirs = useMemo(() => directories(list), [list]);
  const params = useParams({ strict: false }) as { id?: string };
  const navigate = useNavigate();
  const scroller = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const rows = useVirtualizer({
    count: grouped.length,
    getScrollElement: () => scroller.current,
    estimateSize: (i) => (grouped[i].kind === 'header' ? HEADER : ROW),
    overscan: 8,
  });
  const current = shown.findIndex((s) => s.id === params.id);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.target instanceof HTMLElement && e.target.closest('input, textarea, select, [contenteditable]')) return;
      if (e.metaKey || e.ctrlKey || e.altKey) return;
      if (e.key === 'f') {
        e.preventDefault();
        input.current?.focus();
      } else if ((e.key === 'j' || e.key === 'k') && shown.length > 0) {
        const next = current === -1 ? 0 : Math.min(shown.length - 1, Math.max(0, current + (e.key === 'j' ? 1 : -1)));
        rows.scrollToIndex(
          Math.max(
            0,
            grouped.findIndex((row) => row.kind === 'tab' && row.session.id === shown[next].id),
          ),
        );
        void navigate({ to: '/s/$id', params: { id: shown[next].id } });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [shown, grouped, current, navigate, rows]);

  return (
    <nav className="tabs" aria-label="Sessions">
      <div className="tabs-filter">
        <input
          ref={input}
          type="search"
          placeholder="Filter sessions  f"
          aria-label="Filter sessions"
          value={filter.text}
          onChange={(e) => tabFilter.set({ ...filter, text: e.target.value })}
          onKeyDown={(e) => e.key === 'Escape' && e.currentTarget.blur()}
        />
        <select aria-label="Directory" value={filter.dir} onChange={(e) => tabFilter.set({ ...filter, dir: e.target.value })}>
          <option value="">all directories</option>
          {dirs.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
        <LensControls />
        <div className="tabs-foot">
          <div className="tabs-count">
            {error ? <span className="error">{error}</span> : loaded ? `${shown.length} of ${list.length} sessions` : 'loading sessions…'}
          </div>
          <NewSessionButton />
        </div>
      </div>
      <div className="tabs-list" ref={scroller}>
        <ul className="tabs-rows" style={{ height: rows.getTotalSize() }}>
          {rows.getVirtualItems().map((row) => {
            const item = grouped[row.index];
            if (item.kind === 'header')
              return (
                <li key={item.key} className="tabs-group" style={{ height: HEADER, transform: `translateY(${row.start}px)` }}>
                  {item.color && <span className="tag-dot" style={{ background: item.color }} />}
                  <span className="tabs-group-name">{item.label}</span>
                  <span className="tabs-group-count">{item.count}</span>
                </li>
              );
            const s = item.session;
            const stale = staleSince(s, hosts);
            return (
              <li key={item.key} style={{ height: ROW, transform: `translateY(${row.start}px)` }}>
                <a
                  className={`tab${s.id === params.id ? ' active' : ''}`}
                  data-session={s.id}
                  href={`/s/${encodeURIComponent(s.id)}`}
                  onClick={(e) => {
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
                    e.preventDefault();
                    void navigate({ to: '/s/$id', params: { id: s.id } });
                  }}
                >
                  <span className="tab-line">
                    <HostName host={s.host.name} name={shownName(s)} />
                    <TagDots tags={tagsOf(tags, s.id)} />
                    {stale && <StaleBadge host={s.host.name} since={stale} />}
                    <LiveChip state={s.live.state} />
                    <ArchivedChip archived={s.archived} />
                  </span>
                  <span className="tab-sub">
                    <span className="dir">
                      <bdi>{s.dir}</bdi>
                    </span>
                    <span className="age">{age(s.updatedAt)}</span>
                  </span>
                </a>
              </li>
            );
          })}
        </ul>
      </div>
    </nav>
  );
}
