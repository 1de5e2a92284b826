import { parentPort } from 'node:worker_threads';
import type { FromIndexer, ToIndexer } from './index-messages';
import { LINE_SCANNER_PROBLEM } from './line-scanner-memory';
import { indexProject } from './project-index';

// An index worker: indexes the projects it is given, one at a time, in the order given.

const port = parentPort!;
const send = (message: FromIndexer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const queue: ToIndexer[] = [];
let busy = false;

port.on('message', (message: ToIndexer) => {
  queue.push(message);
  if (!busy) void drain();
});
send({ kind: 'ready', scannerProblem: LINE_SCANNER_PROBLEM });

async function drain(): Promise<void> {
  busy = true;
  for (let next = queue.shift(); next; next = queue.shift()) {
    try {
      const project = await indexProject(next.work);
      send({ kind: 'indexed', job: next.job, project }, [project.blobs.buffer as ArrayBuffer, ...project.paths.map(([, path]) => path.buffer as ArrayBuffer)]);
    } catch (err) {
      send({ kind: 'failed', job: next.job, message: (err as Error).message });
    }
  }
  busy = false;
}
