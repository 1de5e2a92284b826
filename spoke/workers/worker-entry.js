// The first module of every Loom worker thread: Loom runs from its TypeScript sources, and a
// worker does not inherit the loader its parent registered, so it registers tsx before importing
// the worker's own module (named in workerData).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);
