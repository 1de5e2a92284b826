import { mutate, query, subscribe } from '../lib/gql';
import { type Enum, type ResultOf, readFragment } from '../lib/graphql';
import { createStore } from '../lib/store';
import { HOST, HOSTS, HOSTS_CHANGED, LINK_HOST, SET_HOST_TRUST, UNLINK_HOST } from './queries';

// Every host this kernel serves (this machine first, then the linked ones), kept current: read
// once with `hosts`, then replaced by each `hostsChanged`, which sends the whole list.

export type Trust = Enum<'TrustTier'>;
export type DownReason = Enum<'HostDownReason'>;

/** A host as the list shows it: target, trust and status are null for this machine. */
export type Host = ResultOf<typeof HOST>;

interface Snapshot {
  loaded: boolean;
  error: string | null;
  hosts: readonly Host[];
}

const store = createStore<Snapshot>({ loaded: false, error: null, hosts: [] });
let started = false;
/** bumped by every hostsChanged: a read that started before one is older than it */
let changes = 0;

async function load(): Promise<void> {
  const seen = changes;
  try {
    const data = await query(HOSTS);
    if (seen === changes) store.set({ loaded: true, error: null, hosts: readFragment(HOST, data.hosts) });
  } catch (err) {
    store.set({ ...store.get(), loaded: true, error: (err as Error).message });
  }
}

function start(): void {
  if (started) return;
  started = true;
  // changes first, so nothing that happens while the list loads is missed; the subscription also
  // sends the whole list again on each reconnect, so a reconnect needs no reload here
  subscribe(HOSTS_CHANGED, {}, ({ hostsChanged }) => {
    changes++;
    store.set({ loaded: true, error: null, hosts: readFragment(HOST, hostsChanged) });
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
  const data = await mutate(LINK_HOST, { target, name: name || undefined, trust, accept: acceptNewHostKey });
  return readFragment(HOST, data.linkHost);
}

export async function unlinkHost(name: string): Promise<void> {
  await mutate(UNLINK_HOST, { name });
}

export async function setHostTrust(name: string, trust: Trust): Promise<void> {
  await mutate(SET_HOST_TRUST, { name, trust });
}
