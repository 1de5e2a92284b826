import type { ArchiveStatus } from '../../spoke/model/archive';
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
    workers: t.exposeInt('workers', {
      description: "worker threads that index whole projects of the first read besides the kernel's own (0: the kernel's thread alone)",
    }),
  }),
});

const ArchiveDroppedRef = builder.objectRef<ArchiveStatus['dropped']>('ArchiveDropped').implement({
  fields: (t) => ({
    files: t.exposeInt('files'),
    bytes: t.exposeFloat('bytes'),
    archiveOnly: t.exposeInt('archiveOnly', { description: 'of those, copies of transcripts Claude Code had deleted: those sessions are gone' }),
  }),
});

const ArchiveRef = builder.objectRef<ArchiveStatus>('Archive').implement({
  description: "Loom's compressed copy of every transcript it has read (docs/architecture.md, The archive).",
  fields: (t) => ({
    files: t.exposeInt('files'),
    rawBytes: t.exposeFloat('rawBytes', { description: 'transcript bytes held' }),
    storedBytes: t.exposeFloat('storedBytes', { description: 'what they take on disk' }),
    capBytes: t.exposeFloat('capBytes', {
      nullable: true,
      description: 'past this, the copies copied least recently are dropped, deleted transcripts included; null: no cap',
    }),
    archiveOnly: t.exposeInt('archiveOnly', { description: 'copies whose transcript Claude Code deleted: the archive is all that is left of them' }),
    dropped: t.field({ type: ArchiveDroppedRef, description: 'what the cap has dropped since the archive began', resolve: (a) => a.dropped }),
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
    archive: t.field({ type: ArchiveRef, nullable: true, description: 'null when the archive is off (--no-archive)', resolve: (k) => k.archive }),
  }),
});

builder.queryField('kernel', (t) => t.field({ type: KernelInfoRef, extensions: hubRoute({ kind: 'local' }), resolve: (_, __, { source }) => source.kernel() }));
