import { duration } from '../lib/duration';
import type { Bar } from './use-timeline';

// The words a tooltip shows for what the timeline draws.

const time = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

const STATUS: Record<Bar['status'], string> = { RUNNING: 'running', ENDED: 'ended', INTERRUPTED: 'interrupted', UNFINISHED: 'unfinished' };

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
