import type { IndexingProgress, KernelInfo } from '../../spoke/model/types';
import { builder } from '../builder';
import { hubRoute } from '../remote/hub-route';
import { HostRef } from './host';
import { SearchProgressRef } from './search';

const IndexingRef = builder.objectRef<IndexingProgress>('Indexing').implement({
  description: 'Progress of the first read of every transcript.',
  fields: (t) => ({
    filesDone: t.exposeInt('filesDone'),
    filesFromCache: t.exposeInt('filesFromCache', { description: 'files unchanged since the last run, taken from the index cache without reading' }),
    filesTotal: t.exposeInt('filesTotal'),
    bytesDone: t.exposeFloat('bytesDone'),
    bytesTotal: t.exposeFloat('bytesTotal'),
    done: t.exposeBoolean('done'),
  }),
});

const KernelInfoRef = builder.objectRef<KernelInfo>('KernelInfo').implement({
  fields: (t) => ({
    version: t.exposeString('version'),
    host: t.field({ type: HostRef, resolve: (k) => k.host }),
    startedAt: t.field({ type: 'DateTime', resolve: (k) => k.startedAt }),
    projectsRoot: t.exposeString('projectsRoot'),
    indexing: t.field({ type: IndexingRef, resolve: (k) => k.indexing }),
    searchIndexing: t.field({
      type: SearchProgressRef,
      nullable: true,
      description: "the search index's background pass, after the first read; null when search is off",
      resolve: (k) => k.searchIndexing,
    }),
    sessionCount: t.exposeInt('sessionCount'),
  }),
});

builder.queryField('kernel', (t) => t.field({ type: KernelInfoRef, extensions: hubRoute({ kind: 'local' }), resolve: (_, __, { source }) => source.kernel() }));
