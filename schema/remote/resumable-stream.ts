import { print, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { RemoteAnswerError, usedFragments, withTypenames, type RemoteDirectory } from './delegate';
import { hostRenamer, rewriteResultIds } from './id-rewrite';
import { RemoteValue } from './remote-value';

// A remote session's stream through the hub. The hub keeps the fence of the last frame it passed
// on (cursor, epoch, generation); when the host drops and comes back it subscribes again from
// there, so the client sees every atom appended meanwhile, once, and no gap.

/** how soon a dropped stream is tried again while its host still looks up */
const RETRY_MS = 500;

interface Fence {
  cursor: number | null;
  epoch: number | null;
  generation: number | null;
}

export async function* resumableStream(info: GraphQLResolveInfo, args: Record<string, unknown>, alias: string, remotes: RemoteDirectory): AsyncGenerator<RemoteValue> {
  let fence: Fence = { cursor: (args.cursor as number) ?? null, epoch: (args.epoch as number) ?? null, generation: (args.generation as number) ?? null };
  const key = info.path.key as string;
  const selection = frameSelection(info);
  const fragments = usedFragments(selection, info.fragments);
  const document = `subscription($sessionId: ID!, $cursor: Int, $epoch: Int, $generation: Int) {
    ${key}: sessionStream(sessionId: $sessionId, cursor: $cursor, epoch: $epoch, generation: $generation) ${print(selection)} }
    ${fragments.map((f) => print(withTypenames(f))).join('\n')}`;
  const fragmentMap = Object.fromEntries(fragments.map((f) => [f.name.value, f]));
  const changes = remotes.changes();
  try {
    for (;;) {
      const remote = upOrNull(remotes, alias);
      if (remote) {
        const sessionId = hostRenamer(remote.alias, remote.remoteName)(String(args.sessionId));
        const back = hostRenamer(remote.remoteName, remote.alias);
        try {
          for await (const data of remote.subscribe(document, { sessionId, ...fence })) {
            const frame = data[key] as Record<string, unknown>;
            fence = { cursor: frame._loomCursor as number, epoch: frame._loomEpoch as number, generation: frame._loomGeneration as number };
            rewriteResultIds(info.schema, frame, info.returnType, selection, fragmentMap, back);
            yield new RemoteValue({ [key]: frame }, alias);
            if (frame._loomKind === 'STOPPED') return;
          }
        } catch (err) {
          // an answer from the remote kernel ends the stream; a lost connection only pauses it
          if (err instanceof RemoteAnswerError) throw err;
        }
      }
      // the host is down or the link dropped: try again when a host changes, or shortly
      await Promise.race([changes.next(), new Promise((resolve) => setTimeout(resolve, RETRY_MS))]);
    }
  } finally {
    void changes.return?.();
  }
}

function upOrNull(remotes: RemoteDirectory, alias: string) {
  try {
    return remotes.up().find((r) => r.alias === alias) ?? null;
  } catch {
    return null;
  }
}

/** The client's frame selection, plus the fence and kind the hub needs to resume. */
function frameSelection(info: GraphQLResolveInfo): SelectionSetNode {
  const selections = info.fieldNodes.flatMap((n) => n.selectionSet?.selections ?? []);
  const extra = ['cursor', 'epoch', 'generation', 'kind'].map((name) => ({
    kind: 'Field' as const,
    alias: { kind: 'Name' as const, value: `_loom${name[0].toUpperCase()}${name.slice(1)}` },
    name: { kind: 'Name' as const, value: name },
  }));
  return withTypenames({ kind: 'SelectionSet' as never, selections: [...selections, ...extra] } as SelectionSetNode);
}
