import type { ChunkCache } from './chunk-file';

/**
 * The last few chunks decompressed, least recently used out first: loading a session's lines one
 * by one reads the same chunk many times over, and a chunk costs about half a millisecond to
 * decompress. Eight chunks of 256 KiB hold 2 MiB at most.
 */
export class RecentChunks implements ChunkCache {
  private readonly chunks = new Map<string, Buffer>();

  constructor(private readonly capacity = 8) {}

  get(key: string): Buffer | undefined {
    const raw = this.chunks.get(key);
    if (raw) {
      this.chunks.delete(key);
      this.chunks.set(key, raw);
    }
    return raw;
  }

  set(key: string, raw: Buffer): void {
    this.chunks.delete(key);
    this.chunks.set(key, raw);
    if (this.chunks.size > this.capacity) this.chunks.delete(this.chunks.keys().next().value!);
  }
}
