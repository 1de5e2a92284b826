import type { Blobs, StoredBlob } from './blob-store';

// Blobs kept in memory: what an index worker's sessions keep asleep until the kernel's thread
// takes them (into its BlobStore when it keeps an index cache, else as they are, in this buffer).

export class BlobBuffer implements Blobs {
  private bytes: Uint8Array;
  private size: number;

  /** An empty buffer, or one holding `bytes` (a worker's, as it handed them over). */
  constructor(held?: Uint8Array) {
    this.bytes = held ?? new Uint8Array(64 << 10);
    this.size = held?.length ?? 0;
  }

  append(bytes: Uint8Array): StoredBlob {
    if (this.size + bytes.length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.size + bytes.length, this.bytes.length * 2));
      grown.set(this.bytes.subarray(0, this.size));
      this.bytes = grown;
    }
    this.bytes.set(bytes, this.size);
    const at = this.size;
    this.size += bytes.length;
    return { at, bytes: bytes.length };
  }

  read(blob: StoredBlob): Buffer {
    if (blob.at + blob.bytes > this.size) throw new Error('a blob lies past the end of its buffer');
    return Buffer.from(this.bytes.slice(blob.at, blob.at + blob.bytes).buffer);
  }

  /** Every blob appended, end to end, as one array (what a worker hands over). */
  take(): Uint8Array {
    return this.bytes.slice(0, this.size);
  }
}
