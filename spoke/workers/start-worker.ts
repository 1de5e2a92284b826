import { Worker } from 'node:worker_threads';

/** A worker thread running a TypeScript module, with its heap capped at `heapMb` (`youngMb` of it for new objects). */
export function startWorker(module: URL, heapMb: number, data: unknown, youngMb = 4): Worker {
  return new Worker(new URL('./worker-entry.js', import.meta.url), {
    workerData: { module: module.href, data },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: youngMb },
  });
}
