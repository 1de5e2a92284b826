import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants } from 'node:zlib';

// Each chunk is one whole brotli stream, so any chunk decompresses on its own. Quality 5 on
// 256 KiB chunks, measured on the 36 real fixture transcripts (18 MB): 6.8x smaller at 70-105
// MB/s on one core; gzip level 6 gave 5.6x, brotli 4 gave 6.4x (docs/architecture.md, "The
// archive"). Both directions run on libuv's thread pool, off the event loop. The window is just
// large enough for the chunk: brotli's default (4 MiB) finds nothing more in a stream of 256 KiB,
// and its buffers made the kernel's resident memory larger while the first copy pass ran.

const compress = promisify(brotliCompress);
const decompress = promisify(brotliDecompress);

const QUALITY = 5;

export function compressChunk(raw: Buffer): Promise<Buffer> {
  return compress(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      [constants.BROTLI_PARAM_LGWIN]: windowBitsFor(raw.length),
    },
  });
}

/** The smallest window that holds `bytes` (a window of 2^bits holds 2^bits − 16 bytes), within brotli's bounds. */
function windowBitsFor(bytes: number): number {
  const bits = Math.ceil(Math.log2(bytes + 16));
  return Math.min(constants.BROTLI_MAX_WINDOW_BITS, Math.max(constants.BROTLI_MIN_WINDOW_BITS, bits));
}

export function decompressChunk(compressed: Buffer): Promise<Buffer> {
  return decompress(compressed);
}
