import { Link } from '@tanstack/react-router';
import { plainTitle } from '../../lib/plain-title';
import { Markdown } from '../Markdown';
import type { ToolResultBlock } from '../types';
import { reportOf } from './subagent-report';

/** What a subagent reported, as Markdown, under a link to its own chat. */
export function SubagentReport({ result }: { result: ToolResultBlock }) {
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
      <Markdown text={reportOf(result.text)} />
    </div>
  );
}
