import type { GraphQLResolveInfo } from 'graphql';
import { NotFoundError } from '../../spoke/model/source';
import type { Context } from '../builder';
import { asClientError } from '../errors';
import { assertWritable } from '../types/host';
import { delegateQuery } from './delegate';

// An action a hub sends to a linked host: the host's trust tier is checked here, before anything
// is sent (an isolated host gets nothing), and the hub's audit log records what it sent and how it
// ended; the host's own log records the action itself.

export async function actOnHost<T>(
  ctx: Context,
  info: GraphQLResolveInfo,
  act: { host: string; summary: string; sessionId?: string; requestId?: string; drop?: string[] },
): Promise<T> {
  const record = (result: string, message: string | null) =>
    ctx.actions.record({
      actor: ctx.actor,
      action: info.fieldName,
      host: act.host,
      sessionId: act.sessionId ?? null,
      requestId: act.requestId ?? null,
      summary: act.summary,
      result,
      message,
    });
  try {
    assertWritable(ctx.hosts, act.host, ctx.source.kernel().host.name);
    const remote = ctx.remotes.get(act.host);
    if (!remote) throw new NotFoundError(`no host "${act.host}": see the hosts query`);
    // the host's own answer, a RemoteValue the schema serves as one (remote-value.ts)
    const done = (await delegateQuery(info, remote, act.drop)) as T;
    record('OK', null);
    return done;
  } catch (err) {
    const code = asClientError(err)?.extensions.code;
    record(typeof code === 'string' ? code : 'INTERNAL', (err as Error).message);
    throw err;
  }
}
