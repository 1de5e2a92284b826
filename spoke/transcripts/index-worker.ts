import { parentPort } from 'node:worker_threads';
import type { FromIndexer, ToIndexer } from './index-messages';
import { LINE_SCANNER_PROBLEM } from './line-scanner-memory';
import { parseLine } from './record';
import { RecordPacker, transferList } from './record-transfer';
import { FileTail } from './tail';

// An index worker: reads whole transcript files and parses every line, as the kernel's thread
// would, posting the results packed (record-transfer.ts). One file at a time, in the order asked.

/** results per batch: the kernel's thread starts on a large file before the worker is done with it */
const BATCH = 2048;
/**
 * A longer line is left to the kernel's thread, with the rest of its file: what it parses to could
 * pass the worker's heap, and a worker out of heap can take the whole process with it.
 */
export const HANDOVER_BYTES = 4 << 20;

const port = parentPort!;
const send = (message: FromIndexer, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
const queue: Extract<ToIndexer, { kind: 'read' }>[] = [];
let busy = false;

port.on('message', (message: ToIndexer) => {
  queue.push(message);
  if (!busy) void drain();
});
send({ kind: 'ready', scannerProblem: LINE_SCANNER_PROBLEM });

async function drain(): Promise<void> {
  busy = true;
  for (let job = queue.shift(); job; job = queue.shift()) await read(job);
  busy = false;
}

async function read({ job, path, place }: Extract<ToIndexer, { kind: 'read' }>): Promise<void> {
  const tail = new FileTail(path);
  const packer = new RecordPacker();
  const post = (last: boolean, state = tail.state()) => {
    const records = packer.take();
    send({ kind: 'batch', job, records, state, last }, transferList(records));
  };
  try {
    // read on this thread: it has nothing else to do meanwhile
    await tail.read(
      {
        restart: () => {},
        line: (line) => {
          if (line.length > HANDOVER_BYTES) {
            post(false, { offset: line.offset, lines: line.number - 1, ino: tail.state()!.ino });
            throw new Error(`line ${line.number} is longer than ${HANDOVER_BYTES >> 20} MB`);
          }
          packer.add(parseLine(line, path, place), line.number, line.offset);
          if (packer.size < BATCH) return;
          // the tail counts this line once the sink returns: the state after it, said here
          const ino = tail.state()!.ino;
          post(false, { offset: line.offset + line.length + 1, lines: line.number, ino });
        },
      },
      Infinity,
      true,
    );
    post(true);
  } catch (err) {
    send({ kind: 'failed', job, message: (err as Error).message });
  }
}
