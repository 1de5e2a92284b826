import type { Worker } from 'node:worker_threads';
import type { ArchiveLines } from '../transcripts/archived-tail';
import { startWorker } from '../workers/start-worker';
import type { FromWriter, ToWriter } from './writer-messages';

// The kernel's side of the search index's writer thread (writer-worker.ts). The thread is started
// on the first catch-up and again after it dies (a catch-up in flight then fails, in one sentence);
// files gone from disk are read from Loom's copy here and handed over piece by piece.

/**
 * The writer's heap: a batch of lines and what one line parses to. Parsing every line of the
 * history again leaves garbage the kernel's own heap would grow by; here it is collected instead.
 */
const WRITER_HEAP_MB = 48;

export interface WriterThreadOptions {
  /** the index's file, created and checked by the kernel (openSearchDb) */
  file: string;
  log(message: string): void;
  /** the archive name of a file read from Loom's copy (gone from disk); null while it is on disk */
  copyName(path: string): string | null;
  archive: ArchiveLines | null;
}

export class WriterThread {
  private worker: Worker | null = null;
  private waiting: { resolve(read: number): void; reject(err: Error): void } | null = null;
  private pieces: AsyncGenerator<Buffer> | null = null;

  constructor(private readonly options: WriterThreadOptions) {}

  /** Indexes the complete lines a file gained since last time; resolves with the bytes read. */
  catchUp(path: string): Promise<number> {
    if (this.waiting) return Promise.reject(new Error('the search writer is busy with another file'));
    const name = this.options.archive ? this.options.copyName(path) : null;
    const copy = name ? { name, archivedTo: this.options.archive!.archivedTo(name) } : null;
    return new Promise<number>((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.send({ kind: 'catchUp', path, copy });
    });
  }

  /** Lets the thread finish its catch-up, closes its connection and waits for it to end. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const ended = new Promise((resolve) => worker.once('exit', resolve));
    this.send({ kind: 'close' });
    await ended;
  }

  private send(message: ToWriter): void {
    this.worker ??= this.start();
    this.worker.postMessage(message);
  }

  private start(): Worker {
    const worker = startWorker(new URL('./writer-worker.ts', import.meta.url), WRITER_HEAP_MB, { file: this.options.file });
    worker.on('message', (message: FromWriter) => void this.received(message));
    worker.on('error', (err) => this.options.log(`the search index's writer thread stopped (${err.message}); it starts again for the next file`));
    worker.on('exit', () => {
      this.worker = null;
      void this.pieces?.return(undefined);
      this.pieces = null;
      this.settle(null, new Error('the writer thread ended before the file was indexed'));
    });
    return worker;
  }

  private async received(message: FromWriter): Promise<void> {
    if (message.kind === 'caughtUp') this.settle(message.read, null);
    else if (message.kind === 'failed') this.settle(null, new Error(message.message));
    else if (message.kind === 'log') this.options.log(message.message);
    else {
      if (message.kind === 'openPieces') {
        await this.pieces?.return(undefined);
        this.pieces = this.options.archive!.pieces(message.name, message.from);
      }
      const next = await this.pieces!.next().catch((err: Error) => {
        this.options.log(`could not read Loom's copy for search: ${err.message}`);
        return { done: true as const, value: undefined };
      });
      // copied out of the archive's cache: what is transferred is the writer's from then on
      const bytes = next.done ? null : Uint8Array.from(next.value);
      this.worker?.postMessage({ kind: 'piece', bytes } satisfies ToWriter, bytes ? [bytes.buffer] : []);
    }
  }

  private settle(read: number | null, err: Error | null): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (!waiting) return;
    if (err) waiting.reject(err);
    else waiting.resolve(read ?? 0);
  }
}
