import { BadInputError } from '../model/source';
import type { UsageQuery, UsageRow } from '../model/usage';
import type { LedgerRow } from './ledger';
import { totals } from './usage';

// Usage across sessions, grouped by day, session, model or host (the query and its rows are
// spoke/model/usage.ts).

export interface LedgerEntry {
  message: LedgerRow;
  /** host-qualified session id */
  session: string;
  host: string;
}

export function usageRows(entries: Iterable<LedgerEntry>, query: UsageQuery): UsageRow[] {
  const keyOf = grouping(query);
  const groups = new Map<string, LedgerRow[]>();
  for (const entry of entries) {
    const t = entry.message.t;
    if ((query.since !== null && t < query.since) || (query.until !== null && t >= query.until)) continue;
    const key = keyOf(entry);
    const group = groups.get(key);
    if (group) group.push(entry.message);
    else groups.set(key, [entry.message]);
  }
  return [...groups].sort(([a], [b]) => a.localeCompare(b)).map(([key, messages]) => ({ key, ...totals(messages) }));
}

function grouping(query: UsageQuery): (entry: LedgerEntry) => string {
  switch (query.groupBy) {
    case 'DAY': {
      const day = dayFormat(query.timeZone);
      return (e) => day.format(new Date(e.message.t));
    }
    case 'SESSION':
      return (e) => e.session;
    case 'MODEL':
      return (e) => e.message.model ?? 'unknown';
    case 'HOST':
      return (e) => e.host;
  }
}

function dayFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    // en-CA writes dates as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  } catch {
    throw new BadInputError(`"timeZone" must be an IANA time zone such as UTC or Europe/Paris, got "${timeZone}"`);
  }
}
