import { readFragment } from '../lib/graphql';
import { Cost } from '../usage/Cost';
import { costText, tokensText, tokensTitle } from '../usage/figures';
import { USAGE_FIGURES } from '../usage/queries';
import type { SessionHead } from './types';

/**
 * "412k tokens · ≈ $1.23": what the session used, its subagents included; the title breaks the
 * tokens down by kind and gives the session's own share when it launched subagents.
 */
export function SessionUsage({ head }: { head: SessionHead }) {
  const usage = readFragment(USAGE_FIGURES, head.usage);
  // nothing billed yet (a session just started): no figures rather than zeros
  if (usage.totalTokens === 0) return null;
  const own = head.ownUsage;
  const withSubagents = head.subagents.length > 0;
  const title = [
    `${tokensText(usage.totalTokens)} tokens${withSubagents ? `, its ${head.subagents.length === 1 ? 'subagent' : `${head.subagents.length} subagents`} included` : ''}: ${tokensTitle(usage)}`,
    withSubagents && `this session alone: ${tokensText(own.totalTokens)} tokens, ${costText(own)}`,
  ]
    .filter(Boolean)
    .join('\n');
  return (
    <span className="chat-usage" data-tokens={usage.totalTokens}>
      <span className="tokens-figure" title={title}>
        {tokensText(usage.totalTokens)} tokens
      </span>
      {' · '}
      <Cost figures={usage} />
    </span>
  );
}
