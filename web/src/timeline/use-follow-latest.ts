import { useEffect, useRef } from 'react';
import { endingAt, span } from './time-window';
import { timeWindow } from './window-store';

/**
 * A window that showed the newest activity keeps showing it as sessions go on: when `latest`
 * moves past the window's end, the window moves with it (same span). A window the person moved
 * back in time stays put.
 */
export function useFollowLatest(latest: number | null): void {
  const previous = useRef(latest);
  useEffect(() => {
    const before = previous.current;
    previous.current = latest;
    const w = timeWindow.get();
    if (!w || latest === null || before === null || latest <= w.to) return;
    if (before >= w.from && before <= w.to) timeWindow.set(endingAt(latest, span(w)));
  }, [latest]);
}
