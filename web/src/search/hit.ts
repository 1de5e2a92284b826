import { query } from '../lib/gql';
import { shownName } from '../tabs/shown-name';
import { HIT_PLACE } from './queries';
import type { SearchHit } from './use-search';

/** Where a hit opens: its session's chat at the hit's line, or the session alone. */
export interface HitPlace {
  sessionId: string;
  search: { at?: number; rewound?: true };
}

/**
 * Asks where the hit's line is now (a rewind moves it) and answers where to open it; null when the
 * session went away since the index saw the line.
 */
export async function hitPlace(hit: SearchHit): Promise<HitPlace | null> {
  if (!hit.session) return null;
  const sessionId = hit.session.id;
  const { atom } = await query(HIT_PLACE, { id: hit.id });
  // a line a rewind took off the path has no place in the chat: the session, and a word saying so
  if (!atom || atom.rewound) return { sessionId, search: { rewound: true } };
  return { sessionId, search: { at: atom.sequence } };
}

/** Where in the line the words were: prompt or reply (a text's speaker says which), thinking, tool, input, output. */
export function fieldLabel(hit: SearchHit): string {
  switch (hit.field) {
    case 'TEXT':
      return hit.type === 'USER' ? 'prompt' : 'reply';
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
