import { useEffect, useRef, useState } from 'react';
import type { SessionTab } from '../tabs/sessions';
import { blockLine } from './labels';
import { sessionLabelOf } from './session-label';
import type { FeedGoal } from './types';

// A browser notification (and, if chosen, a short tone) when a goal on any host becomes blocked,
// named `host:session`; clicking it brings the page back with that goal open. Goals blocked when
// the page loads are not announced: the feed shows them. A closed tab notifies nobody: that is
// what `loom watch --blocked` is for.

const SOUND_KEY = 'loom.notify.sound';
const supported = typeof Notification !== 'undefined';

export interface Notifications {
  /** 'granted', 'denied', 'default' (not asked yet) or 'unsupported' (no Notification API, or not a secure context) */
  permission: NotificationPermission | 'unsupported';
  ask(): void;
  sound: boolean;
  setSound(on: boolean): void;
}

export function useBlockedNotifications(blocked: FeedGoal[], loaded: boolean, tabs: Map<string, SessionTab>, open: (goalId: string) => void): Notifications {
  const [permission, setPermission] = useState<Notifications['permission']>(supported ? Notification.permission : 'unsupported');
  const [sound, setSoundState] = useState(() => localStorage.getItem(SOUND_KEY) === 'on');
  const seen = useRef<Set<string> | null>(null);

  useEffect(() => {
    if (!loaded) return;
    const ids = new Set(blocked.map((g) => g.id));
    const before = seen.current;
    seen.current = ids;
    if (!before) return; // the first read: what was blocked already is on screen
    const fresh = blocked.filter((g) => !before.has(g.id));
    if (fresh.length === 0 || permission !== 'granted') return;
    for (const goal of fresh) {
      const label = sessionLabelOf(goal, tabs);
      const note = new Notification(`${label.host}:${label.name} needs you`, { body: goal.block ? blockLine(goal.block) : goal.title, tag: goal.id });
      note.onclick = () => {
        window.focus();
        open(goal.id);
        note.close();
      };
    }
    if (sound) tone();
  }, [blocked, loaded, permission, sound, tabs, open]);

  return {
    permission,
    ask: () => {
      if (supported) void Notification.requestPermission().then(setPermission);
    },
    sound,
    setSound: (on) => {
      localStorage.setItem(SOUND_KEY, on ? 'on' : 'off');
      setSoundState(on);
    },
  };
}

/** Two short notes: enough to turn a head, no audio file to serve. */
function tone(): void {
  const audio = new AudioContext();
  for (const [i, frequency] of [660, 880].entries()) {
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = frequency;
    gain.gain.value = 0.08;
    oscillator.connect(gain).connect(audio.destination);
    oscillator.start(audio.currentTime + i * 0.15);
    oscillator.stop(audio.currentTime + i * 0.15 + 0.12);
  }
  setTimeout(() => void audio.close(), 600);
}
