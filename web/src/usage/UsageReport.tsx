import { Link } from '@tanstack/react-router';
import { Cost } from './Cost';
import { DaysSection } from './DaysSection';
import { byCost, exactTokens, sumFigures, tokensText, tokensTitle, type UsageRow, unpricedModels } from './figures';
import { RANGES, type RangeId } from './range';
import { SessionsSection } from './SessionsSection';
import { UsageTable } from './UsageTable';

interface ReportProps {
  range: RangeId;
  since: string | null;
  days: readonly UsageRow[];
  models: readonly UsageRow[];
  hosts: readonly UsageRow[];
  sessions: readonly UsageRow[];
}

/** The totals, the days, and a table per model, host and session. */
export function UsageReport({ range, since, days, models, hosts, sessions }: ReportProps) {
  if (days.length === 0) {
    const label = RANGES.find((r) => r.id === range)?.label;
    return (
      <p className="usage-note">
        {range === 'all' ? (
          'No usage yet: it fills in as Claude Code runs.'
        ) : (
          <>
            No usage in the last {label}.{' '}
            <Link to="/usage" search={{ range: 'all' }}>
              Show all of it
            </Link>
          </>
        )}
      </p>
    );
  }
  const total = sumFigures(days);
  const unpriced = unpricedModels(models);
  return (
    <>
      <dl className="usage-totals" data-total-tokens={total.totalTokens}>
        <div>
          <dt>Tokens</dt>
          <dd className="usage-total-tokens" title={tokensTitle(total)}>
            {tokensText(total.totalTokens)}
          </dd>
        </div>
        <div>
          <dt>Cost</dt>
          <dd className="usage-total-cost">
            <Cost figures={total} unpriced={unpriced} estimatedWord />
          </dd>
        </div>
        {(
          [
            ['Input', total.inputTokens],
            ['Output', total.outputTokens],
            ['Cache writes', total.cacheCreationTokens],
            ['Cache reads', total.cacheReadTokens],
          ] as const
        ).map(([name, n]) => (
          <div key={name} className="usage-total-kind">
            <dt>{name}</dt>
            <dd title={exactTokens(n)}>{tokensText(n)}</dd>
          </div>
        ))}
      </dl>
      {unpriced.length > 0 && (
        <p className="usage-note">
          Loom's price table has no price for {unpriced.join(', ')}: a total that includes {unpriced.length === 1 ? 'it' : 'them'} has no cost, and their tokens
          are still counted.
        </p>
      )}
      <DaysSection days={days} since={since} unpriced={unpriced} />
      <section>
        <h2>Per model</h2>
        <UsageTable
          group="model"
          caption="Tokens and cost per model"
          rowHeader="Model"
          rows={[...models].sort(byCost)}
          label={(row) => row.key}
          unpriced={(row) => [row.key]}
        />
      </section>
      <section>
        <h2>Per host</h2>
        <UsageTable
          group="host"
          caption="Tokens and cost per host"
          rowHeader="Host"
          rows={[...hosts].sort(byCost)}
          label={(row) => row.key}
          unpriced={() => unpriced}
        />
      </section>
      <SessionsSection sessions={sessions} unpriced={unpriced} />
    </>
  );
}
