import { ForbiddenError, type HostDirectory, NotFoundError } from '../../spoke/model/source';
import type { HostInfo, HostLink } from '../../spoke/model/types';
import { builder } from '../builder';
import { hubRoute } from '../remote/hub-route';

// Hosts: this machine, and every machine this kernel links over SSH with its status and trust.

const HostStateEnum = builder.enumType('HostState', { values: ['UP', 'CONNECTING', 'DOWN'] as const });
const HostDownReasonEnum = builder.enumType('HostDownReason', {
  values: ['UNREACHABLE', 'AUTH_FAILED', 'HOST_KEY_UNKNOWN', 'HOST_KEY_CHANGED', 'HOST_KEY_REVOKED', 'KERNEL_NOT_RUNNING', 'VERSION_MISMATCH'] as const,
});
const TrustTierEnum = builder.enumType('TrustTier', {
  description: 'What this hub sends a linked host: reads always; mutations to TRUSTED and DIRECTED hosts; none to ISOLATED ones.',
  values: { TRUSTED: { value: 'trusted' }, DIRECTED: { value: 'directed' }, ISOLATED: { value: 'isolated' } } as const,
});

const HostStatusRef = builder.objectRef<HostLink>('HostStatus').implement({
  description: 'How a linked host is now. DOWN carries the reason and what to do about it.',
  fields: (t) => ({
    state: t.field({ type: HostStateEnum, resolve: (l) => l.state }),
    reason: t.field({ type: HostDownReasonEnum, nullable: true, resolve: (l) => l.reason }),
    message: t.string({ nullable: true, resolve: (l) => l.message }),
    since: t.field({ type: 'DateTime', description: 'when the state last changed', resolve: (l) => l.since }),
    lastSeen: t.field({ type: 'DateTime', nullable: true, description: 'when the host last answered', resolve: (l) => l.lastSeen }),
    rttMs: t.float({ nullable: true, description: 'round trip to its kernel through the tunnel, in ms', resolve: (l) => l.rttMs }),
  }),
});

export const HostRef = builder.objectRef<HostInfo>('Host').implement({
  description: 'A machine whose sessions this kernel serves.',
  fields: (t) => ({
    id: t.id({ resolve: (h) => h.name }),
    name: t.exposeString('name'),
    local: t.exposeBoolean('local', { description: 'true for the machine this kernel runs on' }),
    target: t.string({ nullable: true, description: 'the SSH target it is linked by (null for this machine)', resolve: (h) => h.link?.target ?? null }),
    trust: t.field({ type: TrustTierEnum, nullable: true, description: 'null for this machine', resolve: (h) => h.link?.trust ?? null }),
    status: t.field({ type: HostStatusRef, nullable: true, description: 'null for this machine', resolve: (h) => h.link ?? null }),
  }),
});

const allHosts = (source: { hosts(): HostInfo[] }, hosts: { list(): HostInfo[] }): HostInfo[] => [...source.hosts(), ...hosts.list()];

builder.queryField('hosts', (t) =>
  t.field({ type: [HostRef], extensions: hubRoute({ kind: 'local' }), resolve: (_, __, { source, hosts }) => allHosts(source, hosts) }),
);

builder.subscriptionField('hostsChanged', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'local' }),
    type: [HostRef],
    description: 'Every host, each time one is linked, unlinked, changes trust, or goes up or down.',
    subscribe: async function* (_, __, { source, hosts }) {
      yield allHosts(source, hosts);
      for await (const _change of hosts.changes()) yield allHosts(source, hosts);
    },
    resolve: (list) => list,
  }),
);

builder.mutationField('linkHost', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'local' }),
    type: HostRef,
    description:
      "Links a host over SSH (linking the same target again updates it) and answers after the first attempt: UP, or DOWN with the reason. An unknown host key is refused with its fingerprint unless acceptNewHostKey. The command run there and its state dir come from the hub's hosts.json only: `loom link <target> --command CMD --remote-state DIR` on the hub writes them.",
    args: {
      target: t.arg.string({ required: true, description: 'user@host:port or a ~/.ssh/config alias' }),
      name: t.arg.string({ description: 'the alias ids carry; default the first label of the host name' }),
      trust: t.arg({ type: TrustTierEnum, description: 'default DIRECTED' }),
      acceptNewHostKey: t.arg.boolean({ defaultValue: false }),
      startKernel: t.arg.boolean({ defaultValue: false, description: 'start the kernel there (loom up --no-demo) if none runs; never done unasked' }),
    },
    resolve: (_, args, { hosts }) =>
      hosts.link({
        target: args.target,
        name: args.name ?? undefined,
        trust: args.trust ?? undefined,
        acceptNew: args.acceptNewHostKey ?? false,
        startKernel: args.startKernel ?? false,
      }),
  }),
);

builder.mutationField('unlinkHost', (t) =>
  t.boolean({
    extensions: hubRoute({ kind: 'local' }),
    description: 'Ends the link and forgets the host; false when no host had that name.',
    args: { name: t.arg.string({ required: true }) },
    resolve: (_, { name }, { hosts }) => hosts.unlink(name),
  }),
);

builder.mutationField('setHostTrust', (t) =>
  t.field({
    extensions: hubRoute({ kind: 'local' }),
    type: HostRef,
    args: { name: t.arg.string({ required: true }), trust: t.arg({ type: TrustTierEnum, required: true }) },
    resolve: (_, { name, trust }, { hosts }) => hosts.setTrust(name, trust),
  }),
);

/**
 * The trust gate for mutations: a mutation may go to this machine, or to a linked host whose tier
 * allows it (TRUSTED, DIRECTED); an ISOLATED host is read-only and gets nothing.
 */
export function assertWritable(hosts: HostDirectory, hostName: string, localName: string): void {
  if (hostName === localName) return;
  const host = hosts.list().find((h) => h.name === hostName);
  if (!host) throw new NotFoundError(`no host "${hostName}": see the hosts query`);
  if (host.link?.trust === 'isolated')
    throw new ForbiddenError(
      `${hostName} is isolated: this hub sends it nothing (reads only). Change that with: loom link ${host.link.target} --trust directed`,
    );
}

/** The Host object for a host name, as the source describes it. */
export function hostNamed(hosts: HostInfo[], name: string): HostInfo {
  return hosts.find((h) => h.name === name) ?? { name, local: false };
}
