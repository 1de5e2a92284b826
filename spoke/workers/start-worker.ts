import { Worker } from 'node:worker_threads';

/** A worker thread running a TypeScript module, with its heap capped at `heapMb`. */
export function startWorker(module: URL, heapMb: number, data: unknown): Worker {
  return new Worker(new URL('./worker-entry.js', import.meta.url), {
    workerData: { module: module.href, data },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 4 },
  });
}
