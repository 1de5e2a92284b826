import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

declare global {
  interface ImportMeta {
    /** each worker module's compiled file, when Loom runs compiled (server/bin/compiled.js defines it) */
    loomWorkers?: Record<string, string>;
  }
}

const compiledWorkers = import.meta.loomWorkers;

/**
 * A worker thread running one of Loom's worker modules, with its heap capped at `heapMb` (`youngMb`
 * of it for new objects): its compiled file when Loom runs compiled, else its TypeScript source
 * through worker-entry.js. The module reads `data` from `workerData.data` either way.
 */
export function startWorker(module: URL, heapMb: number, data: unknown, youngMb = 4): Worker {
  const compiled = compiledWorkers?.[fileURLToPath(module)];
  const resourceLimits = { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: youngMb };
  if (compiled) return new Worker(compiled, { workerData: { data }, resourceLimits });
  return new Worker(new URL('./worker-entry.js', import.meta.url), { workerData: { module: module.href, data }, resourceLimits });
}
