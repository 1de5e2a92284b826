import SchemaBuilder from '@pothos/core';
import type DataLoader from 'dataloader';
import './budget-plugin';
import type { Actions } from '../spoke/act/actions';
import type { Driving } from '../spoke/drive/driving';
import type { HostDirectory, Source } from '../spoke/model/source';
import type { ContentBlock } from '../spoke/model/types';
import type { ViewsStore } from '../spoke/views/views-store';
import type { OperationBudget } from './operation-budget';
import type { RemoteDirectory } from './remote/delegate';

// The one Pothos builder. Each GraphQL type lives in its own file under types/ and registers
// itself here; schema/index.ts imports them all and builds the schema.

export interface Context {
  source: Source;
  /** what this kernel does for its owner: answers, the away switch, the audit log */
  actions: Actions;
  /** the sessions this kernel drives, and prompts sent through it */
  driving: Driving;
  /** this kernel's tags and saved views */
  views: ViewsStore;
  /** who asks, for the audit log: `local`, or `hub:<name>` for a hub acting through its link */
  actor: string;
  /** the hosts this kernel links over SSH */
  hosts: HostDirectory;
  /** the same hosts as the schema routes fields to them */
  remotes: RemoteDirectory;
  /** batches content loads of one request: key is the atom's wire id */
  content: DataLoader<AtomKey, ContentBlock[], string>;
  /** what a query or mutation may still do (server/security/operation-bounds.ts); none for subscriptions */
  budget?: OperationBudget;
  /** aborts when the caller is gone (its socket or request closed) */
  signal?: AbortSignal | null;
  /** who asked (their socket): a hub shares a host's places fairly between its callers */
  requester?: object;
}

export interface AtomKey {
  host: string;
  key: string;
  atom: import('../spoke/model/types').AtomMeta;
}

export const builder = new SchemaBuilder<{
  Context: Context;
  Scalars: {
    DateTime: { Input: Date; Output: Date | number };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: ['operationBudget'],
  defaultFieldNullability: false,
});

builder.queryType({});
builder.subscriptionType({});
builder.mutationType({});
