import { useId, useState } from 'react';
import type { UsageRow } from './figures';
import { dayOf, daysBetween } from './range';
import { type ChartDay, type ChartMetric, UsageChart } from './UsageChart';
import { UsageTable } from './UsageTable';

// Per day: a bar chart of the estimated cost (or of the tokens, stacked by kind), and the same
// days as a table, which is the chart's text alternative. Cost comes first: tokens are mostly
// cache reads, which are cheap, so a token chart hides the days that cost the most.

export function DaysSection({ days, since, unpriced }: { days: readonly UsageRow[]; since: string | null; unpriced: readonly string[] }) {
  const [metric, setMetric] = useState<ChartMetric>('cost');
  const captionId = useId();
  const chartDays = chartDaysOf(days, since);
  const unknownDays = days.filter((d) => d.cost === null).length;
  return (
    <section>
      <div className="usage-section-head">
        <h2>Per day</h2>
        <fieldset className="usage-metric">
          <legend>Chart</legend>
          {(['cost', 'tokens'] as const).map((m) => (
            <label key={m}>
              <input type="radio" name="usage-metric" value={m} checked={metric === m} onChange={() => setMetric(m)} /> {m}
            </label>
          ))}
        </fieldset>
      </div>
      <figure className="usage-figure" aria-labelledby={captionId}>
        <UsageChart days={chartDays} metric={metric} />
        <figcaption id={captionId}>
          {metric === 'cost' ? 'Estimated cost per day' : 'Tokens per day, by kind'}, {chartDays[0].day} to {chartDays[chartDays.length - 1].day}; the same
          figures are in the table of days below.
          {metric === 'cost' && unknownDays > 0 && ` ${unknownDays === 1 ? 'A day' : `${unknownDays} days`} without a price show no bar.`}
        </figcaption>
      </figure>
      <details className="usage-days">
        <summary>The days as a table</summary>
        <UsageTable
          group="day"
          caption="Tokens and cost per day, newest first"
          rowHeader="Day"
          rows={[...days].reverse()}
          label={(row) => row.key}
          unpriced={() => unpriced}
        />
      </details>
    </section>
  );
}

/** A bar for every day of the range (for "all", from the first day with usage to the last), empty days included. */
function chartDaysOf(days: readonly UsageRow[], since: string | null): ChartDay[] {
  const byDay = new Map(days.map((d) => [d.key, d]));
  const first = since ? dayOf(new Date(since)) : days[0].key;
  const last = since ? dayOf(new Date()) : days[days.length - 1].key;
  return daysBetween(first, last).map((day) => {
    const d = byDay.get(day);
    return {
      day,
      cost: d ? d.cost : 0,
      input: d?.inputTokens ?? 0,
      output: d?.outputTokens ?? 0,
      cacheWrite: d?.cacheCreationTokens ?? 0,
      cacheRead: d?.cacheReadTokens ?? 0,
    };
  });
}
