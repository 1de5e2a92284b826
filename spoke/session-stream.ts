import type { ResetReason, StreamFrame, StreamRequest } from './model/source';
import type { Pulse } from './model/pulse';
import type { Atom, AtomMeta } from './model/types';
import type { TranscriptSession } from './transcripts/session';

// One session's atoms as a stream: a snapshot to start from, then every new atom once, in
// order. The stream reads the session's state when woken rather than carrying events, so a burst
// of appends becomes one delta and nothing can fall between two notifications.

/** atoms in a snapshot when the client holds nothing */
export const SNAPSHOT_WINDOW = 200;
/** atoms per frame when catching up from an old cursor */
const FRAME_LIMIT = 500;

export async function* streamSession(
  session: TranscriptSession,
  request: StreamRequest,
  wake: Pulse,
  load: (atoms: AtomMeta[]) => Promise<Atom[]>,
): AsyncGenerator<StreamFrame> {
  const frame = (kind: StreamFrame['kind'], atoms: Atom[], cursor: number, reason: ResetReason | null): StreamFrame => ({
    host: request.host,
    key: request.key,
    kind,
    reset: reason !== null,
    reason,
    atoms,
    cursor,
    epoch: session.epoch,
    generation: session.generation,
  });

  let path = session.activePath();
  let generation = session.generation;
  const reason = staleReason(request, session, path.length);
  let sent: number;
  if (request.cursor === null || reason) {
    sent = Math.max(0, path.length - SNAPSHOT_WINDOW);
    yield frame('SNAPSHOT', await load(path.slice(sent)), path.length, reason);
    sent = path.length;
  } else {
    sent = request.cursor;
    const first = path.slice(sent, sent + FRAME_LIMIT);
    sent += first.length;
    yield frame('SNAPSHOT', await load(first), sent, null);
  }

  for (;;) {
    path = session.activePath();
    if (session.generation !== generation) {
      // The path was rewritten (a rewind, a file read again): what the client holds is void.
      generation = session.generation;
      sent = Math.max(0, path.length - SNAPSHOT_WINDOW);
      yield frame('SNAPSHOT', await load(path.slice(sent)), path.length, 'GENERATION_MISMATCH');
      sent = path.length;
    } else if (path.length > sent) {
      const next = path.slice(sent, sent + FRAME_LIMIT);
      sent += next.length;
      yield frame('DELTA', await load(next), sent, null);
      continue; // more may be waiting beyond the frame limit
    }
    const { done } = await wake.next();
    if (done) return;
  }
}

function staleReason(request: StreamRequest, session: TranscriptSession, length: number): ResetReason | null {
  if (request.cursor === null) return null;
  if (request.epoch !== null && request.epoch !== session.epoch) return 'EPOCH_MISMATCH';
  if (request.generation !== null && request.generation !== session.generation) return 'GENERATION_MISMATCH';
  if (request.cursor < 0 || request.cursor > length) return 'SEQUENCE_RESET';
  return null;
}
