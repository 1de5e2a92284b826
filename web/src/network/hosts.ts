import { mutate, query, subscribe } from '../lib/gql';
import { createStore } from '../lib/store';

// Every host this kernel serves (this machine first, then the linked ones), kept current: read
// once with `hosts`, then replaced by each `hostsChanged`, which sends the whole list.

export type HostState = 'UP' | 'CONNECTING' | 'DOWN';
export type DownReason =
  | 'UNREACHABLE'
  | 'AUTH_FAILED'
  | 'HOST_KEY_UNKNOWN'
  | 'HOST_KEY_CHANGED'
  | 'HOST_KEY_REVOKED'
  | 'KERNEL_NOT_RUNNING'
  | 'VERSION_MISMATCH';
export type Trust = 'TRUSTED' | 'DIRECTED' | 'ISOLATED';

export interface HostStatus {
  state: HostState;
  reason: DownReason | null;
  /** what to do about it, when DOWN */
  message: string | null;
  since: string;
  lastSeen: string | null;
  rttMs: number | null;
}

export interface Host {
  name: string;
  local: boolean;
  /** null for this machine, like trust and status */
  target: string | null;
  trust: Trust | null;
  status: HostStatus | null;
}

const FIELDS = 'name local target trust status { state reason message since lastSeen rttMs }';
const HOSTS = `{ hosts { ${FIELDS} } }`;
const CHANGES = `subscription { hostsChanged { ${FIELDS} } }`;
const LINK = `mutation($target: String!, $name: String, $trust: TrustTier, $accept: Boolean) {
  linkHost(target: $target, name: $name, trust: $trust, acceptNewHostKey: $accept) { ${FIELDS} } }`;
const UNLINK = `mutation($name: String!) { unlinkHost(name: $name) }`;
const SET_TRUST = `mutation($name: String!, $trust: TrustTier!) { setHostTrust(name: $name, trust: $trust) { ${FIELDS} } }`;

interface Snapshot {
  loaded: boolean;
  error: string | null;
  hosts: Host[];
}

const store = createStore<Snapshot>({ loaded: false, error: null, hosts: [] });
let started = false;
/** bumped by every hostsChanged: a read that started before one is older than it */
let changes = 0;

async function load(): Promise<void> {
  const seen = changes;
  try {
    const { hosts } = await query<{ hosts: Host[] }>(HOSTS);
    if (seen === changes) store.set({ loaded: true, error: null, hosts });
  } catch (err) {
    store.set({ ...store.get(), loaded: true, error: (err as Error).message });
  }
}

function start(): void {
  if (started) return;
  started = true;
  // changes first, so nothing that happens while the list loads is missed; the subscription also
  // sends the whole list again on each reconnect, so a reconnect needs no reload here
  subscribe<{ hostsChanged: Host[] }>(CHANGES, {}, ({ hostsChanged }) => {
    changes++;
    store.set({ loaded: true, error: null, hosts: hostsChanged });
  });
  void load();
}

export function useHosts(): Snapshot {
  start();
  return store.use();
}

export interface LinkRequest {
  target: string;
  name?: string;
  trust: Trust;
  acceptNewHostKey: boolean;
}

/** Links (or relinks) a host; answers after the first attempt, UP or DOWN with the reason. */
export async function linkHost(request: LinkRequest): Promise<Host> {
  const { target, name, trust, acceptNewHostKey } = request;
  const data = await mutate<{ linkHost: Host }>(LINK, { target, name: name || undefined, trust, accept: acceptNewHostKey });
  return data.linkHost;
}

export async function unlinkHost(name: string): Promise<void> {
  await mutate(UNLINK, { name });
}

export async function setHostTrust(name: string, trust: Trust): Promise<void> {
  await mutate(SET_TRUST, { name, trust });
}
