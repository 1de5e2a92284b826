import './cost.css';
import { costText, costTitle, type Figures } from './figures';

/** A cost as the API gives it: "≈ $1.23" (estimated) or "unknown", with why in its title. */
export function Cost({
  figures,
  unpriced,
  estimatedWord = false,
}: {
  figures: Pick<Figures, 'cost' | 'costStatus'>;
  unpriced?: readonly string[];
  estimatedWord?: boolean;
}) {
  const known = figures.cost !== null && figures.costStatus !== 'UNKNOWN';
  return (
    <span
      className={known ? 'cost' : 'cost cost-unknown'}
      title={costTitle(figures, unpriced)}
      data-cost={figures.cost ?? ''}
      data-cost-status={figures.costStatus}
    >
      {costText(figures)}
      {known && estimatedWord && <span className="cost-status"> estimated</span>}
    </span>
  );
}
