import type { IndexingProgress } from '../spoke/model/types';

// The first index, drawn on a terminal: files, megabytes and throughput, redrawn in place at
// most ten times a second. On anything but a terminal it stays silent; the summary line says it.

const WIDTH = 24;
const MB = 1024 * 1024;

export function progressBar(stream: NodeJS.WriteStream): { update(p: IndexingProgress): void; finish(p: IndexingProgress): string } {
  const started = Date.now();
  let drawn = 0;
  const rate = (p: IndexingProgress) => p.bytesDone / MB / Math.max((Date.now() - started) / 1000, 0.001);
  return {
    update(p) {
      if (!stream.isTTY || Date.now() - drawn < 100) return;
      drawn = Date.now();
      const done = p.bytesTotal > 0 ? p.bytesDone / p.bytesTotal : 1;
      const filled = Math.round(done * WIDTH);
      stream.write(
        `\r\x1b[2Kindexing ▕${'█'.repeat(filled)}${'░'.repeat(WIDTH - filled)}▏ ${p.filesDone}/${p.filesTotal} files · ` +
          `${(p.bytesDone / MB).toFixed(1)}/${(p.bytesTotal / MB).toFixed(1)} MB · ${rate(p).toFixed(0)} MB/s`,
      );
    },
    finish(p) {
      if (stream.isTTY) stream.write('\r\x1b[2K');
      const seconds = (Date.now() - started) / 1000;
      return `indexed ${p.filesDone} files, ${(p.bytesDone / MB).toFixed(1)} MB in ${seconds.toFixed(1)} s (${rate(p).toFixed(0)} MB/s)`;
    },
  };
}
