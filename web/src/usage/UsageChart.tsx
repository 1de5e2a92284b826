import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from 'recharts';
import { dollars, tokensText } from './figures';

// The per-day chart, drawn with recharts: the reason the usage view is loaded lazily. Colours are
// the stylesheet's variables (usage.css), so they follow the light or dark theme.

export type ChartMetric = 'cost' | 'tokens';

export interface ChartDay {
  day: string;
  /** null when the day's cost is unknown: no bar rather than a wrong one */
  cost: number | null;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

const TOKEN_KINDS = [
  { key: 'input', name: 'input', color: 'var(--usage-input)' },
  { key: 'output', name: 'output', color: 'var(--usage-output)' },
  { key: 'cacheWrite', name: 'cache writes', color: 'var(--usage-cache-write)' },
  { key: 'cacheRead', name: 'cache reads', color: 'var(--usage-cache-read)' },
] as const;

const shortDay = (day: string) => new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function UsageChart({ days, metric }: { days: ChartDay[]; metric: ChartMetric }) {
  const format = (v: unknown) => (typeof v === 'number' ? (metric === 'cost' ? dollars(v) : tokensText(v)) : 'unknown');
  return (
    <BarChart
      responsive
      className="usage-chart"
      style={{ width: '100%', height: 260 }}
      data={days}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      title={metric === 'cost' ? 'Estimated cost per day' : 'Tokens per day, by kind'}
    >
      <CartesianGrid vertical={false} stroke="var(--line)" />
      <XAxis dataKey="day" tickFormatter={shortDay} stroke="var(--line)" tick={{ fill: 'var(--fg-dim)', fontSize: 11 }} minTickGap={12} />
      <YAxis tickFormatter={format} stroke="var(--line)" tick={{ fill: 'var(--fg-dim)', fontSize: 11 }} width={56} />
      <Tooltip
        formatter={format}
        labelFormatter={(day) => shortDay(String(day))}
        cursor={{ fill: 'var(--bg-soft)' }}
        contentStyle={{ background: 'var(--bg-raised)', border: '1px solid var(--line)', color: 'var(--fg)', fontSize: 12 }}
      />
      {metric === 'cost' ? (
        <Bar dataKey="cost" name="estimated cost" fill="var(--usage-cost)" isAnimationActive={false} />
      ) : (
        TOKEN_KINDS.map((k) => <Bar key={k.key} dataKey={k.key} name={k.name} stackId="tokens" fill={k.color} isAnimationActive={false} />)
      )}
      {metric === 'tokens' && <Legend wrapperStyle={{ fontSize: 12 }} />}
    </BarChart>
  );
}
