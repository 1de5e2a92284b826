import { type GraphQLResolveInfo, Kind, print, type SelectionSetNode } from 'graphql';
import { UnavailableError } from '../../spoke/model/source';
import { aliasedField, hostAnswer, MisshapenAnswerError, RemoteAnswerError, type RemoteDirectory, usedFragments, withTypenames } from './delegate';
import { RemoteValue } from './remote-value';

// A remote session's stream through the hub. The hub keeps the fence of the last frame it passed
// on (cursor, epoch, generation); when the host drops and comes back it subscribes again from
// there, so the client sees every atom appended meanwhile, once, and no gap. A frame that does
// not fit the schema ends the stream instead: resumed, the host would only send it again.

/** how soon a dropped stream is tried again while its host still looks up */
const RETRY_MS = 500;

interface Fence {
  cursor: number | null;
  epoch: number | null;
  generation: number | null;
}

/** The stream as graphql-ws consumes it: returning it ends the remote subscription at once. */
export function resumableStream(
  info: GraphQLResolveInfo,
  args: Record<string, unknown>,
  alias: string,
  remotes: RemoteDirectory,
): AsyncIterableIterator<RemoteValue> {
  const run: Run = { closed: false, current: null, changes: remotes.changes() };
  const frames = resume(info, args, alias, remotes, run);
  return {
    next: () => frames.next(),
    async return() {
      // a generator busy awaiting cannot be returned: end what it awaits, then it finishes
      run.closed = true;
      void run.current?.return?.();
      void run.changes.return?.();
      return frames.return(undefined);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

interface Run {
  closed: boolean;
  /** the remote subscription being read */
  current: AsyncIterator<Record<string, unknown>> | null;
  changes: AsyncIterableIterator<void>;
}

async function* resume(
  info: GraphQLResolveInfo,
  args: Record<string, unknown>,
  alias: string,
  remotes: RemoteDirectory,
  run: Run,
): AsyncGenerator<RemoteValue> {
  let fence: Fence = { cursor: (args.cursor as number) ?? null, epoch: (args.epoch as number) ?? null, generation: (args.generation as number) ?? null };
  const key = info.path.key as string;
  const selection = frameSelection(info);
  const fragments = usedFragments(selection, info.fragments);
  const document = `subscription($sessionId: ID!, $cursor: Int, $epoch: Int, $generation: Int) {
    ${key}: sessionStream(sessionId: $sessionId, cursor: $cursor, epoch: $epoch, generation: $generation) ${print(selection)} }
    ${fragments.map((f) => print(withTypenames(f))).join('\n')}`;
  const fragmentMap = Object.fromEntries(fragments.map((f) => [f.name.value, f]));
  // however the stream ends (stopped, an error, or returned), it stops following the hosts
  try {
    while (!run.closed) {
      const remote = remotes.up().find((r) => r.alias === alias);
      if (remote) {
        run.current = remote.subscribe(document, { sessionId: remote.toRemote(String(args.sessionId)), ...fence });
        try {
          for (let step = await run.current.next(); !step.done && !run.closed; step = await run.current.next()) {
            const frame = hostAnswer(info.schema, step.value[key], info.returnType, selection, fragmentMap, remote) as Record<string, unknown>;
            fence = { cursor: frame._loomCursor as number, epoch: frame._loomEpoch as number, generation: frame._loomGeneration as number };
            yield new RemoteValue({ [key]: frame }, alias);
            if (frame._loomKind === 'STOPPED') return;
          }
        } catch (err) {
          // an answer from the remote kernel ends the stream, and so does a frame that does not fit
          // (the host would send it again on every resume); a lost connection only pauses it
          if (err instanceof RemoteAnswerError) throw err;
          if (err instanceof MisshapenAnswerError) throw misfitFrame(alias, fence);
        } finally {
          void run.current.return?.();
          run.current = null;
        }
      }
      if (run.closed) return;
      // the host is down or the link dropped: try again when a host changes, or shortly
      await Promise.race([run.changes.next(), new Promise((resolve) => setTimeout(resolve, RETRY_MS))]);
    }
  } finally {
    void run.changes.return?.();
  }
}

function misfitFrame(alias: string, fence: Fence): UnavailableError {
  const served = fence.cursor === null ? 'before its first frame' : `after cursor ${fence.cursor}`;
  return new UnavailableError(`${alias} sent a stream frame that does not fit the schema; the stream ends ${served}`);
}

/** The client's frame selection, plus the fence and kind the hub needs to resume. */
function frameSelection(info: GraphQLResolveInfo): SelectionSetNode {
  const selections = info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []);
  const extra = ['cursor', 'epoch', 'generation', 'kind'].map((name) => aliasedField(`_loom${name[0].toUpperCase()}${name.slice(1)}`, name));
  return withTypenames({ kind: Kind.SELECTION_SET, selections: [...selections, ...extra] });
}
