import { plainTitle } from '../lib/plain-title';
import type { ChatTurn } from './types';

/** Where a turn starts in the chat: its trigger, or its first atom when no prompt started it. */
export const turnStart = (turn: ChatTurn): number => turn.trigger?.sequence ?? turn.firstSequence;

/** The session's turns by their first prompt line; a click brings that turn into view. */
export function TableOfContents({ turns, onPick }: { turns: ChatTurn[]; onPick: (turn: ChatTurn) => void }) {
  return (
    <nav className="toc" aria-label="Turns">
      <div className="toc-title">{turns.length === 1 ? '1 turn' : `${turns.length} turns`}</div>
      <ol>
        {turns.map((turn) => {
          const author = turn.trigger?.author?.kind;
          const line = turn.trigger?.promptLine ? plainTitle(turn.trigger.promptLine) : undefined;
          return (
            <li key={turn.id}>
              <button type="button" data-toc-turn={turn.id} title={line} onClick={() => onPick(turn)}>
                <span className="toc-index">{turn.index + 1}</span>
                {author && author !== 'HUMAN' && <span className="toc-author">{author.toLowerCase()}</span>}
                <span className={turn.trigger ? 'toc-line' : 'toc-line toc-none'}>{line ?? '(no prompt)'}</span>
              </button>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
