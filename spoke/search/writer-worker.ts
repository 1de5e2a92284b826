import { parentPort, workerData } from 'node:worker_threads';
import { ArchivedTail, type ArchiveLines } from '../transcripts/archived-tail';
import { FileTail } from '../transcripts/tail';
import { IndexWriter } from './index-writer';
import { connectSearchDb } from './search-db';
import type { CopyRef, FromWriter, ToWriter } from './writer-messages';

// The search index's writer thread: parses transcript lines and writes them to the index, on its
// own capped heap, so the garbage of parsing every line again never grows the kernel's memory.

const port = parentPort!;
const { file } = (workerData as { data: { file: string } }).data;
const send = (message: FromWriter) => port.postMessage(message);
const db = connectSearchDb(file);
// appends touch the ends of the index's trees: a small cache costs little speed and ~12 MB less resident
db.pragma('cache_size = -4000');

let copy: CopyRef | null = null;
let pieceArrived: ((bytes: Uint8Array | null) => void) | null = null;
const nextPiece = () => new Promise<Uint8Array | null>((resolve) => (pieceArrived = resolve));

/** Loom's copy of a file, piece by piece from the kernel's thread. */
const archive: ArchiveLines = {
  archivedTo: () => copy?.archivedTo ?? 0,
  async *pieces(name, from = 0) {
    const first = nextPiece();
    send({ kind: 'openPieces', name, from });
    let bytes = await first;
    while (bytes) {
      yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const next = nextPiece();
      send({ kind: 'nextPiece' });
      bytes = await next;
    }
  },
};

const writer = new IndexWriter(
  db,
  (path) => (copy ? new ArchivedTail(path, copy.name, archive) : new FileTail(path)),
  (message) => send({ kind: 'log', message }),
);

port.on('message', (message: ToWriter) => {
  if (message.kind === 'piece') {
    pieceArrived?.(message.bytes);
  } else if (message.kind === 'catchUp') {
    copy = message.copy;
    writer.catchUp(message.path).then(
      (read) => send({ kind: 'caughtUp', read }),
      (err: Error) => send({ kind: 'failed', message: err.message }),
    );
  } else {
    db.close();
    port.close();
  }
});
