import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { SessionComposer } from '../drive/SessionComposer';
import { useSessions } from '../tabs/sessions';
import { AtWork, isAtWork } from './at-work';
import { ChatHeader } from './ChatHeader';
import { buildRows } from './rows';
import { TableOfContents, turnStart } from './TableOfContents';
import { type Jump, TranscriptView } from './TranscriptView';
import type { ChatAtom, ChatTurn } from './types';
import { useLineLink } from './use-line-link';
import { useSessionHead } from './use-session-head';
import { useTranscript } from './use-transcript';
import './chat.css';

/** Where the chat opens: the link's `?turn=`, `?at=` and `?rewound=` (routes/session.tsx). */
export interface ChatPlace {
  turnId: string | null;
  /** a search hit's line: the chat opens at the row that shows it, and marks that row */
  at: number | null;
  /** the search hit the link came from is on a branch a rewind took off the path */
  rewound: boolean;
  /** this visit of the link: opening the same link again jumps again */
  visit: string;
}

/**
 * One session's conversation, live: header, the rows, the composer, and a table of contents by turn.
 * It opens at the newest rows, or at the place the link names.
 */
export function ChatPane({ sessionId, place }: { sessionId: string; place: ChatPlace }) {
  const { turnId, at, visit } = place;
  const transcript = useTranscript(sessionId);
  const { head, loaded, error: headError } = useSessionHead(sessionId, `${transcript.resets}:${newestPrompt(transcript.atoms)}`);
  const { byId } = useSessions();
  const rows = useMemo(() => buildRows(transcript.atoms), [transcript.atoms]);
  const turnIds = useMemo(() => new Set(head?.turns.map((t) => t.id)), [head]);
  // a turn's id is its trigger's atom id: the rewind marker goes above that row
  const rewound = useMemo(() => new Map(head?.turns.filter((t) => t.rewoundBranches.length > 0).map((t) => [t.id, t.rewoundBranches])), [head]);
  const [jump, setJump] = useState<Jump | null>(null);
  const { feed } = transcript;

  const goTo = useCallback(
    (turn: ChatTurn) => {
      const sequence = turnStart(turn);
      setJump({ sequence, nonce: Date.now() });
      void feed.loadUntil(sequence);
    },
    [feed],
  );

  // `?turn=`: jump once the turns are known, and again whenever the link names another turn (a
  // link with `?at=` opens at its line instead)
  const [missingTurn, setMissingTurn] = useState<string | null>(null);
  const openedTurn = useRef<string | null>(null);
  useEffect(() => {
    if (!turnId || at !== null || !head || !transcript.ready || openedTurn.current === turnId) return;
    openedTurn.current = turnId;
    const turn = head.turns.find((t) => t.id === turnId);
    setMissingTurn(turn ? null : turnId);
    if (turn) goTo(turn);
  }, [turnId, at, head, transcript.ready, goTo]);

  // `?at=`: a search hit's line
  const { hit, missing: lineMissing } = useLineLink(at, visit, transcript, rows, setJump);

  // a session that closed may come back (a resume, its terminal again): follow its stream again then
  const tab = byId.get(sessionId);
  const live = tab?.live.state ?? head?.live.state;
  const holder = tab?.holder ?? head?.holder;
  useEffect(() => feed.wake(), [feed, live, holder]);

  if (loaded && !head && !headError) {
    return <div className="chat-message error">No session {sessionId} on this kernel: it may have been removed, or the link is wrong.</div>;
  }
  const error = headError ?? transcript.error;
  if (!head) {
    return <div className={error ? 'chat-message error' : 'chat-message'}>{error ? `Could not load this session: ${error}` : 'Loading…'}</div>;
  }

  return (
    <AtWork.Provider value={isAtWork(live ?? head.live.state, transcript.atoms, Date.now())}>
      <div className="chat">
        <ChatHeader head={head} live={live ?? head.live.state} />
        <div className="chat-main">
          {error && <div className="chat-error error">{error}</div>}
          {missingTurn && <div className="chat-notice">Turn {missingTurn} is not in this session; showing the newest messages.</div>}
          {lineMissing && <div className="chat-notice">The line this link points at is not in this session any more; showing the newest messages.</div>}
          {place.rewound && (
            <div className="chat-notice">
              The line the search found is on a branch a rewind took off the path: “show what was rewound” above a rewritten turn shows it.
            </div>
          )}
          {transcript.ready && rows.length === 0 && !error && <div className="chat-message">Nothing to show in this session yet.</div>}
          <TranscriptView
            sessionId={sessionId}
            rows={rows}
            rewound={rewound}
            turnIds={turnIds}
            hasOlder={transcript.hasOlder}
            loadingOlder={transcript.loadingOlder}
            resets={transcript.resets}
            jump={jump}
            hit={hit}
            onNearTop={() => void feed.loadOlder()}
          />
          {transcript.loadingOlder && <div className="chat-loading">loading earlier messages…</div>}
          <SessionComposer
            sessionId={sessionId}
            host={head.host.name}
            holder={holder ?? head.holder}
            driving={tab?.driving ?? head.driving}
            subagent={head.parent !== null}
            atoms={transcript.atoms}
          />
        </div>
        <TableOfContents turns={head.turns} onPick={goTo} />
      </div>
    </AtWork.Provider>
  );
}

/** sequence of the newest prompt held: when it changes, a turn may have begun */
function newestPrompt(atoms: readonly ChatAtom[]): number {
  for (let i = atoms.length - 1; i >= 0; i--) {
    const kind = atoms[i].author?.kind;
    if (kind === 'HUMAN' || kind === 'SDK' || kind === 'PEER') return atoms[i].sequence;
  }
  return 0;
}
