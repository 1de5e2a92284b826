import { setFlagsFromString } from 'node:v8';

// A kernel reading a history parses gigabytes of lines it keeps almost nothing of. V8 lets its
// heap grow far past what is live before it collects (by default up to several times the live
// size when allocation is fast): on a 1 GB history that was 320 MB resident for 70 MB live.
// Growing it by half at most kept the peak near 210 MB at the same speed (docs/performance.md).

/** Bounds how far V8 lets the heap grow between collections; call once, before indexing. */
export function boundHeapGrowth(): void {
  setFlagsFromString('--heap-growing-percent=50');
}
