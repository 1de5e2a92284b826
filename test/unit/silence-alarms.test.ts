import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { WORKING_WINDOW_MS } from '../../spoke/goals/sign-of-life';
import { SilenceAlarms } from '../../spoke/goals/silence-alarms';

// An alarm rings once a session's last record stops counting as a sign of life, by the kernel's
// clock: never before, and once.

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('a silence alarm', () => {
  it('rings once the record is past, not when its timer fires a moment early by the clock', () => {
    const recordAt = 1_000_000;
    const at = recordAt + WORKING_WINDOW_MS;
    let now = at - 100;
    const rung: number[] = [];
    const alarms = new SilenceAlarms(
      () => now,
      () => rung.push(now),
    );
    alarms.set('s1', recordAt);
    // the timer fires, but the kernel's clock says the record still counts
    now = at;
    vi.advanceTimersByTime(101);
    expect(rung).toEqual([]);
    now = at + 1;
    vi.advanceTimersByTime(1);
    expect(rung).toEqual([at + 1]);
    vi.advanceTimersByTime(WORKING_WINDOW_MS);
    expect(rung).toHaveLength(1);
    alarms.stop();
  });

  it('rings each window for a record dated ahead of the clock, so its turn into the window is heard', () => {
    const recordAt = 5 * WORKING_WINDOW_MS;
    let now = 0;
    const rung: number[] = [];
    const alarms = new SilenceAlarms(
      () => now,
      () => rung.push(now),
    );
    alarms.set('s1', recordAt);
    now = WORKING_WINDOW_MS + 1;
    vi.advanceTimersByTime(WORKING_WINDOW_MS + 1);
    expect(rung).toEqual([WORKING_WINDOW_MS + 1]);
    alarms.stop();
  });
});
