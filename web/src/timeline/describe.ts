import type { Bar } from './use-timeline';

// The words a tooltip shows for what the timeline draws.

const time = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

const STATUS: Record<Bar['status'], string> = { RUNNING: 'running', ENDED: 'ended', INTERRUPTED: 'interrupted' };

/** The prompt that opened the turn (and the one that opened this segment, when another), then when. */
export function describeBar(bar: Bar): string {
  const lines = [bar.triggerText ?? '(no prompt text)'];
  if (bar.segmentIndex > 0 && bar.inputText && bar.inputText !== bar.triggerText) lines.push(`↳ ${bar.inputText}`);
  lines.push(`turn ${bar.turnIndex + 1}, ${STATUS[bar.status]} · ${range(bar.t, bar.end)}`);
  return lines.join('\n');
}

export function describeSpan(what: string, t: string, end: string | null): string {
  return `${what} · ${end ? range(t, end) : `since ${time.format(Date.parse(t))}`}`;
}

function range(t: string, end: string): string {
  const ms = Date.parse(end) - Date.parse(t);
  return `${time.format(Date.parse(t))} for ${duration(ms)}`;
}

/** "45s", "12m", "3h 5m", "2d 4h". */
function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h}h ${m % 60}m` : `${h}h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d}d ${h % 24}h` : `${d}d`;
}
