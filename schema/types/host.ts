import type { HostInfo } from '../../spoke/model/types';
import { builder } from '../builder';

export const HostRef = builder.objectRef<HostInfo>('Host').implement({
  description: 'A machine whose sessions this kernel serves.',
  fields: (t) => ({
    id: t.id({ resolve: (h) => h.name }),
    name: t.exposeString('name'),
    local: t.exposeBoolean('local', { description: 'true for the machine this kernel runs on' }),
  }),
});

builder.queryField('hosts', (t) => t.field({ type: [HostRef], resolve: (_, __, { source }) => source.hosts() }));

/** The Host object for a host name, as the source describes it. */
export function hostNamed(hosts: HostInfo[], name: string): HostInfo {
  return hosts.find((h) => h.name === name) ?? { name, local: false };
}
