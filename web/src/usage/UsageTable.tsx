import type { ReactNode } from 'react';
import { Cost } from './Cost';
import { exactTokens, type Figures, tokensText, tokensTitle, type UsageRow } from './figures';

// One group of usage as a table: a row per day, model, host or session, a column per kind of
// token, the total and the cost. The short figures carry the exact count in their title and in
// data-value.

const KINDS = [
  ['input', 'Input', (f: Figures) => f.inputTokens],
  ['output', 'Output', (f: Figures) => f.outputTokens],
  ['cache-write', 'Cache writes', (f: Figures) => f.cacheCreationTokens],
  ['cache-read', 'Cache reads', (f: Figures) => f.cacheReadTokens],
  ['total', 'Total', (f: Figures) => f.totalTokens],
] as const;

interface Column {
  header: string;
  cell: (row: UsageRow) => ReactNode;
}

interface UsageTableProps {
  caption: string;
  /** what a row is: the header of its first column */
  rowHeader: string;
  rows: readonly UsageRow[];
  label: (row: UsageRow) => ReactNode;
  /** a column after the first (a session's host) */
  extra?: Column;
  /** the models without a price that a row's unknown cost may be down to */
  unpriced: (row: UsageRow) => readonly string[];
  group: string;
}

export function UsageTable({ caption, rowHeader, rows, label, extra, unpriced, group }: UsageTableProps) {
  return (
    <div className="usage-table-scroll">
      <table className="usage-table" data-group={group}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{rowHeader}</th>
            {extra && <th scope="col">{extra.header}</th>}
            {KINDS.map(([kind, header]) => (
              <th key={kind} scope="col" className="num">
                {header}
              </th>
            ))}
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key} data-key={row.key}>
              <th scope="row">{label(row)}</th>
              {extra && <td>{extra.cell(row)}</td>}
              {KINDS.map(([kind, , value]) => (
                <td key={kind} className="num" data-kind={kind} data-value={value(row)} title={kind === 'total' ? tokensTitle(row) : exactTokens(value(row))}>
                  {tokensText(value(row))}
                </td>
              ))}
              <td className="num" data-kind="cost">
                <Cost figures={row} unpriced={unpriced(row)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
