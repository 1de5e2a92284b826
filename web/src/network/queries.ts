import { graphql } from '../lib/graphql';

// The GraphQL documents of the hosts list and the link form. `hostsChanged` sends the whole
// list each time; status (like target and trust) is null for this machine.

export const HOST = graphql(`
  fragment HostFields on Host {
    name local target trust
    status { state reason message since lastSeen rttMs }
  }
`);

export const HOSTS = graphql(
  `
  query Hosts { hosts { ...HostFields } }
`,
  [HOST],
);

export const HOSTS_CHANGED = graphql(
  `
  subscription HostsChanged { hostsChanged { ...HostFields } }
`,
  [HOST],
);

export const LINK_HOST = graphql(
  `
  mutation LinkHost($target: String!, $name: String, $trust: TrustTier, $accept: Boolean) {
    linkHost(target: $target, name: $name, trust: $trust, acceptNewHostKey: $accept) { ...HostFields }
  }
`,
  [HOST],
);

export const UNLINK_HOST = graphql(`
  mutation UnlinkHost($name: String!) { unlinkHost(name: $name) }
`);

export const SET_HOST_TRUST = graphql(
  `
  mutation SetHostTrust($name: String!, $trust: TrustTier!) { setHostTrust(name: $name, trust: $trust) { ...HostFields } }
`,
  [HOST],
);
