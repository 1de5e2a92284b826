import { useEffect, useMemo } from 'react';
import { filterSessions } from '../tabs/filter';
import { tabFilter } from '../tabs/filter-store';
import { useSessions } from '../tabs/sessions';
import { tagsOf, useTags } from '../tags/tags-store';
import './timeline.css';
import { laneTag } from './lane-tag-store';
import { TimelineView } from './TimelineView';
import { DAY, endingAt, fitting } from './time-window';
import { useFollowLatest } from './use-follow-latest';
import { timeWindow } from './window-store';

// `/timeline`: a lane per session over a window of time. The lanes obey the tab filter, and the
// lane tag filter when one is chosen. The
// first window is the day up to the newest activity (transcripts may be old: not "now"), and
// it follows new activity until the person moves it back in time.
export function TimelinePane() {
  const { list, loaded, error } = useSessions();
  const filter = tabFilter.use();
  const tag = laneTag.use();
  const tags = useTags();
  const shown = useMemo(() => {
    const filtered = filterSessions(list, filter);
    return tag === null ? filtered : filtered.filter((s) => tagsOf(tags, s.id).some((t) => t.id === tag));
  }, [list, filter, tag, tags]);
  const window = timeWindow.use();
  const all = useMemo(() => fitting(shown), [shown]);
  // the list is most recently active first
  const newest = list.length > 0 ? Date.parse(list[0].updatedAt) : null;

  useEffect(() => {
    if (!window && newest !== null) timeWindow.set(endingAt(newest, DAY));
  }, [window, newest]);
  useFollowLatest(newest);

  if (error) return <div className="empty error">The sessions could not be loaded: {error}</div>;
  if (!loaded) return <div className="empty">Loading sessions…</div>;
  if (!window) return <div className="empty">No sessions yet: the timeline fills in as Claude Code runs.</div>;
  const latest = shown.length > 0 ? Date.parse(shown[0].updatedAt) : null;
  return <TimelineView window={window} shown={shown} latest={latest} all={all} />;
}
