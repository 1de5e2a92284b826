import { Link } from '@tanstack/react-router';
import { plainTitle } from '../../lib/plain-title';
import { type HeldText, mapHeld } from '../held-text';
import { Prose } from '../Prose';
import type { ToolResultBlock } from '../types';
import { reportOf } from './subagent-report';

/** What a subagent reported, as Markdown (the whole on "show all"), under a link to its own chat. */
export function SubagentReport({ result, held }: { result: ToolResultBlock; held: HeldText }) {
  return (
    <div className="subagent-report">
      {result.subagent && (
        <p className="subagent-link">
          subagent{' '}
          <Link to="/s/$id" params={{ id: result.subagent.id }} data-subagent={result.subagent.id}>
            {plainTitle(result.subagent.name)}
          </Link>
        </p>
      )}
      <Prose held={mapHeld(held, reportOf)} />
    </div>
  );
}
