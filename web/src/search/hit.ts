import { shownName } from '../tabs/shown-name';
import type { SearchHit } from './use-search';

/** Where a hit opens: its session's chat at the hit's line, or at its turn, or the session alone. */
export interface HitPlace {
  sessionId: string;
  search: { turn?: string; at?: number; rewound?: true };
}

/** null when the session went away since the index saw the line */
export function hitPlace(hit: SearchHit): HitPlace | null {
  if (!hit.session) return null;
  const sessionId = hit.session.id;
  const turn = hit.turn ? { turn: hit.turn.id } : {};
  // a line a rewind took off the path has no place in the chat: its turn if it has one, and a word saying so
  if (hit.sequence === null) return { sessionId, search: { ...turn, rewound: true } };
  return { sessionId, search: { ...turn, at: hit.sequence } };
}

/** Where in the line the words were: prompt or reply (a text's speaker says which), thinking, tool, input, output. */
export function fieldLabel(hit: SearchHit): string {
  switch (hit.field) {
    case 'TEXT':
      return hit.atom.type === 'USER' ? 'prompt' : 'reply';
    case 'THINKING':
      return 'thinking';
    case 'TOOLS':
      return 'tool';
    case 'INPUT':
      return 'input';
    case 'OUTPUT':
      return 'output';
  }
}

/** the session's name as the tabs show it, or a word that it is gone */
export function hitSessionName(hit: SearchHit): string {
  return hit.session ? shownName(hit.session) : 'a session no longer there';
}
