import type { Pulse } from './model/pulse';
import type { ResetReason, StreamFrame, StreamRequest } from './model/source';
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
  /** true once the session has ended (live state CLOSED) */
  closed: () => boolean,
): AsyncGenerator<StreamFrame> {
  // The path grows while a frame's content loads: what a frame carries, its cursor and its
  // fences are all taken before anything is awaited.
  const frame = async (kind: StreamFrame['kind'], metas: AtomMeta[], cursor: number, reason: ResetReason | null): Promise<StreamFrame> => {
    const fence = { epoch: session.epoch, generation: session.generation };
    return { host: request.host, key: request.key, kind, reset: reason !== null, reason, cursor, ...fence, atoms: await load(metas) };
  };
  const window = (path: AtomMeta[]) => path.slice(Math.max(0, path.length - SNAPSHOT_WINDOW));

  let path = session.activePath();
  let generation = session.generation;
  const reason = staleReason(request, session, path.length);
  let sent: number;
  if (request.cursor === null || reason) {
    sent = path.length;
    yield await frame('SNAPSHOT', window(path), sent, reason);
  } else {
    const first = path.slice(request.cursor, request.cursor + FRAME_LIMIT);
    sent = request.cursor + first.length;
    yield await frame('SNAPSHOT', first, sent, null);
  }

  for (;;) {
    path = session.activePath();
    if (session.generation !== generation) {
      // The path was rewritten (a rewind, a file read again): what the client holds is void.
      generation = session.generation;
      sent = path.length;
      yield await frame('SNAPSHOT', window(path), sent, 'GENERATION_MISMATCH');
    } else if (path.length > sent) {
      const next = path.slice(sent, sent + FRAME_LIMIT);
      sent += next.length;
      yield await frame('DELTA', next, sent, null);
      continue; // more may be waiting beyond the frame limit
    } else if (closed()) {
      // The session ended and the client holds everything: say so, and end the stream.
      yield await frame('STOPPED', [], sent, null);
      return;
    }
    const { done } = await wake.next();
    if (done) return;
  }
}

function staleReason(request: StreamRequest, session: TranscriptSession, length: number): ResetReason | null {
  if (request.cursor === null) return null;
  // A cursor means nothing without the fences it was read under.
  if (request.epoch === null || request.generation === null) return 'FENCE_MISSING';
  if (request.epoch !== session.epoch) return 'EPOCH_MISMATCH';
  if (request.generation !== session.generation) return 'GENERATION_MISMATCH';
  if (request.cursor < 0 || request.cursor > length) return 'SEQUENCE_RESET';
  return null;
}
